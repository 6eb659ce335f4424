import CommandLineFrontEnd

/// `aggr`, the command line on SQLite files.
///
/// A command naming a PostgreSQL database runs `aggr-postgres` instead, which links the
/// PostgreSQL client (see `AggrEntry`).
@main
enum AggrMain {
    static func main() async {
        AggrEntry.handOffToServerBinary()
        guard var command = AggrEntry.start(servers: { _ in [] }) else { return }
        await command.run()
    }
}
