package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.FleetJobs;
import dev.podium.ingest.testing.Reproductions;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** One command re-runs a reproduction on its pools, for an operator and no one with less. */
@QuarkusTest
class ReproductionRerunIT {

    private static final String OPERATOR = "test-operate-token-of-32-chars-or-more";
    private static final String VIEWER = "test-read-token-of-32-chars-or-more";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void anOperatorRerunsAReproductionOnItsPoolsAndNoTokenOrAReadTokenIsRefused() {
        Db db = new Db(dataSource);
        String pools = FleetJobs.pool("rerun-a") + "," + FleetJobs.pool("rerun-b");
        UUID reproduction = Reproductions.reproduce(pools);
        String path = "/admin/reproductions/" + reproduction + "/rerun";
        long campaigns = db.count("SELECT count(*) FROM campaign");

        given().post(path).then().statusCode(401);
        given().auth().oauth2(VIEWER).post(path).then().statusCode(403);
        given().auth()
                .oauth2(OPERATOR)
                .post("/admin/reproductions/" + UUID.randomUUID() + "/rerun")
                .then()
                .statusCode(404);
        given().auth()
                .oauth2(OPERATOR)
                .post("/admin/reproductions/x'%3B%20DROP%20TABLE%20job%3B--/rerun")
                .then()
                .statusCode(404);
        assertThat(db.count("SELECT count(*) FROM campaign")).isEqualTo(campaigns);

        String rerun = given().auth()
                .oauth2(OPERATOR)
                .post(path)
                .then()
                .statusCode(201)
                .body("rerun_of", equalTo(reproduction.toString()))
                .extract()
                .path("campaign_id");
        String row = "SELECT source, claim_id, array_to_string(pools, ','), dimension FROM claim_reproduction "
                + "WHERE campaign_id = ?::uuid";
        assertThat(db.rows(row, rerun)).isEqualTo(db.rows(row, reproduction.toString()));
        assertThat(db.rows("SELECT rerun_of::text, actor FROM claim_reproduction WHERE campaign_id = ?::uuid", rerun))
                .containsExactly(List.of(reproduction.toString(), "operator"));
        assertThat(db.count("SELECT count(*) FROM job WHERE campaign_id = ?::uuid", rerun))
                .isEqualTo(db.count("SELECT count(*) FROM job WHERE campaign_id = ?", reproduction));
    }

    @Test
    void aRerunOfAReproductionAtOneDeviceARunIsAtOneDeviceARunAgain() {
        Db db = new Db(dataSource);
        UUID reproduction = Reproductions.reproduce(FleetJobs.pool("rerun-small"), "1");

        String rerun = given().auth()
                .oauth2(OPERATOR)
                .post("/admin/reproductions/" + reproduction + "/rerun")
                .then()
                .statusCode(201)
                .body("devices", equalTo(1))
                .extract()
                .path("campaign_id");

        assertThat(db.rows("SELECT devices FROM claim_reproduction WHERE campaign_id = ?::uuid", rerun))
                .containsExactly(List.of(1));
        assertThat(db.rows("SELECT DISTINCT spec->'parameters'->>'nproc' FROM job WHERE campaign_id = ?::uuid", rerun))
                .containsExactly(List.of("1"));
    }
}
