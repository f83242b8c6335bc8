import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Sets the password of a database role, for ./podium up: everything comes from the environment (DB_URL, DB_USER,
 * DB_PASSWORD, ROLE, ROLE_PASSWORD), so no password is on a command line. Run as
 * {@code java -cp postgresql.jar scripts/db/SetRolePassword.java}.
 */
public class SetRolePassword {

    public static void main(String[] args) throws Exception {
        String role = System.getenv("ROLE");
        if (role == null || !role.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("ROLE must be a plain lower-case role name");
        }
        try (Connection c = DriverManager.getConnection(System.getenv("DB_URL"), System.getenv("DB_USER"),
                System.getenv("DB_PASSWORD")); Statement s = c.createStatement()) {
            // ALTER ROLE takes no bind parameters: the password is quoted by the server's own quote_literal.
            String literal;
            try (PreparedStatement ps = c.prepareStatement("SELECT quote_literal(?)")) {
                ps.setString(1, System.getenv("ROLE_PASSWORD"));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    literal = rs.getString(1);
                }
            }
            s.execute("ALTER ROLE " + role + " LOGIN PASSWORD " + literal);
            System.out.println("password of role " + role + " set");
        }
    }
}
