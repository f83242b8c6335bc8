package dev.podium.agent.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secrets before anything is journaled or published. It knows secrets three ways: by name (environment variables
 * and {@code --flag=value} arguments whose name looks like a token, key, secret or password), by value (every value
 * found that way, and every value a job's grant marked secret, is also scrubbed from free text such as a log tail, where
 * a workload may have echoed it), and by shape in free text: {@code name=value}, JSON-style {@code "password": "…"},
 * {@code Authorization:} headers and bearer tokens, and passwords in URLs ({@code scheme://user:pass@host}).
 */
public final class Redactor {

    public static final String MASK = "***";
    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(token|secret|passw(or)?d|passwd|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth|(^|[_-])key$).*");
    private static final Pattern FLAG_WITH_VALUE = Pattern.compile("^(--?[A-Za-z0-9_.-]+)=(.*)$", Pattern.DOTALL);
    /** name=value or name: value inside free text, e.g. "HF_TOKEN=hf_abc" echoed in a log. */
    private static final Pattern INLINE = Pattern.compile(
            "(?i)\\b([A-Za-z0-9_.-]*(token|secret|password|passwd|api[_-]?key)[A-Za-z0-9_.-]*)(\\s*[=:]\\s*)(\"?)([^\\s\"',;]+)");

    private static final String SECRET_WORD =
            "[A-Za-z0-9_.-]*(?:token(?!s|iz)|secret|passw(?:or)?d|passwd|api[_-]?key|access[_-]?key|private[_-]?key|credential)"
                    + "[A-Za-z0-9_.-]*";
    /** A JSON or Python-dict key that names a secret, then its value: quoted ("…" or '…', escapes kept) or bare. */
    private static final Pattern QUOTED_KEY = Pattern.compile("(?i)([\"'])(" + SECRET_WORD + ")\\1(\\s*:\\s*)"
            + "(?:\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|[^\\s,}\\]]+)");
    /** An Authorization or Proxy-Authorization header (or its value after = or :), with or without a scheme. */
    private static final Pattern AUTHORIZATION = Pattern.compile(
            "(?i)\\b((?:proxy-)?authorization[\"']?\\s*[:=]\\s*[\"']?)(?:(bearer|basic|token|digest|negotiate)\\s+)?"
                    + "[^\\s\"',;]+");
    /** A bearer token outside a header, as clients print it. */
    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer)\\s+[A-Za-z0-9._~+/=-]{8,}");
    /** The password of a URL's user information: scheme://user:password@host. */
    private static final Pattern URL_PASSWORD =
            Pattern.compile("\\b([A-Za-z][A-Za-z0-9+.-]*://[^/\\s:@]*):([^/\\s@]+)@");
    /** Values shorter than this are not scrubbed from free text: "1" or "yes" would mangle the log. */
    private static final int MIN_SCRUB_LENGTH = 4;

    private final Set<String> knownSecrets;
    /** Values a grant marked secret: scrubbed whatever their length, since nothing else says they may be shown. */
    private final Set<String> markedSecrets;

    private Redactor(Set<String> knownSecrets, Set<String> markedSecrets) {
        this.knownSecrets = knownSecrets;
        this.markedSecrets = markedSecrets;
    }

    /** A redactor that knows the secret values of this environment and these arguments. */
    public static Redactor of(Map<String, String> environment, Collection<String> args) {
        Set<String> secrets = new LinkedHashSet<>();
        environment.forEach((k, v) -> {
            if (isSecretName(k) && v != null && !v.isBlank()) {
                secrets.add(v);
            }
        });
        List<String> list = new ArrayList<>(args);
        for (int i = 0; i < list.size(); i++) {
            Matcher m = FLAG_WITH_VALUE.matcher(list.get(i));
            if (m.matches() && isSecretName(m.group(1)) && !m.group(2).isBlank()) {
                secrets.add(m.group(2));
            } else if (list.get(i).startsWith("-") && isSecretName(list.get(i)) && i + 1 < list.size()) {
                secrets.add(list.get(i + 1));
            }
        }
        return new Redactor(secrets, Set.of());
    }

    public static Redactor none() {
        return new Redactor(Set.of(), Set.of());
    }

    /** This redactor, also masking these values (a job's secret environment) wherever they appear. */
    public Redactor alsoMasking(Collection<String> secretValues) {
        Set<String> marked = new LinkedHashSet<>(markedSecrets);
        secretValues.stream().filter(v -> v != null && !v.isEmpty()).forEach(marked::add);
        return new Redactor(knownSecrets, marked);
    }

    public static boolean isSecretName(String name) {
        return name != null && SECRET_NAME.matcher(name.replaceFirst("^-+", "")).matches();
    }

    /** The environment as it may be shown: secret-looking names keep their name, their value is masked. */
    public Map<String, String> environment(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((k, v) -> out.put(k, isSecretName(k) ? MASK : text(v)));
        return out;
    }

    /** Arguments as they may be shown: {@code --token=x} becomes {@code --token=***}, {@code --token x} masks x. */
    public List<String> args(List<String> args) {
        List<String> out = new ArrayList<>(args.size());
        boolean maskNext = false;
        for (String a : args) {
            if (maskNext) {
                out.add(MASK);
                maskNext = false;
                continue;
            }
            Matcher m = FLAG_WITH_VALUE.matcher(a);
            if (m.matches() && isSecretName(m.group(1))) {
                out.add(m.group(1) + "=" + MASK);
            } else if (a.startsWith("-") && isSecretName(a)) {
                out.add(a);
                maskNext = true;
            } else {
                out.add(text(a));
            }
        }
        return out;
    }

    /** Free text with every known secret value and every secret-shaped value masked. */
    public String text(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        List<String> byLength = new ArrayList<>(knownSecrets);
        byLength.removeIf(s -> s.length() < MIN_SCRUB_LENGTH);
        byLength.addAll(markedSecrets);
        byLength.sort(Comparator.comparingInt(String::length).reversed());
        for (String s : byLength) {
            out = out.replace(s, MASK);
        }
        out = URL_PASSWORD.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + ":" + MASK + "@"));
        out = QUOTED_KEY
                .matcher(out)
                .replaceAll(m -> Matcher.quoteReplacement(
                        m.group(1) + m.group(2) + m.group(1) + m.group(3) + m.group(1) + MASK + m.group(1)));
        out = AUTHORIZATION
                .matcher(out)
                .replaceAll(m ->
                        Matcher.quoteReplacement(m.group(1) + (m.group(2) == null ? "" : m.group(2) + " ") + MASK));
        out = BEARER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + " " + MASK));
        return INLINE.matcher(out)
                .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + m.group(3) + m.group(4) + MASK));
    }
}
