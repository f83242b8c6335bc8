package dev.podium.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactorTest {

    @Test
    void secretLookingEnvironmentNamesAreMaskedOthersKept() {
        Redactor r = Redactor.of(Map.of("HF_TOKEN", "hf_abcdef123456"), List.of());
        Map<String, String> env = r.environment(Map.of("HF_TOKEN", "hf_abcdef123456", "WANDB_API_KEY", "k-999999",
                "DB_PASSWORD", "pw", "OMP_NUM_THREADS", "4", "AWS_SECRET_ACCESS_KEY", "s3cr3t"));
        assertThat(env).containsEntry("HF_TOKEN", "***").containsEntry("WANDB_API_KEY", "***")
                .containsEntry("DB_PASSWORD", "***").containsEntry("AWS_SECRET_ACCESS_KEY", "***")
                .containsEntry("OMP_NUM_THREADS", "4");
    }

    @Test
    void flagsWithSecretNamesAreMaskedInBothForms() {
        Redactor r = Redactor.of(Map.of(), List.of("train.py", "--token=abc12345", "--api-key", "xyz98765", "--lr", "0.1"));
        assertThat(r.args(List.of("train.py", "--token=abc12345", "--api-key", "xyz98765", "--lr", "0.1")))
                .containsExactly("train.py", "--token=***", "--api-key", "***", "--lr", "0.1");
    }

    @Test
    void knownSecretValuesAndInlineAssignmentsAreScrubbedFromFreeText() {
        Redactor r = Redactor.of(Map.of("HF_TOKEN", "hf_abcdef123456"), List.of("--password=hunter22"));
        String log = "using hf_abcdef123456 to download\nlogin hunter22 ok\nexport GITHUB_TOKEN=ghp_zzzzzzzz; next";
        String clean = r.text(log);
        assertThat(clean).doesNotContain("hf_abcdef123456", "hunter22", "ghp_zzzzzzzz").contains("GITHUB_TOKEN=***");
    }

    @Test
    void keyIdsAreNotSecrets() {
        assertThat(Redactor.isSecretName("PODIUM_KEY_ID")).isFalse();
        assertThat(Redactor.isSecretName("PODIUM_KEY_SECRET")).isTrue();
        assertThat(Redactor.isSecretName("SSH_PRIVATE_KEY")).isTrue();
    }
}
