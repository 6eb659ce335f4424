import CommandLineFrontEnd
import PostgresStorage

/// `aggr-postgres`, the same command line able to open `postgres://` databases.
///
/// `aggr` runs it for a command that names one; it is its own binary so that SwiftNIO and
/// the PostgreSQL client stay out of every other command's start-up.
@main
enum AggrPostgresMain {
    static func main() async {
        guard var command = AggrEntry.start(servers: { user in [PostgresServer(user: user)] }) else { return }
        await command.run()
    }
}
