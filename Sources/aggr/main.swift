import CommandLineFrontEnd

// `aggr`: the command line on SQLite files. A command naming a PostgreSQL database runs
// `aggr-postgres` instead, which links the PostgreSQL client (see AggrEntry).
AggrEntry.handOffToServerBinary()
await AggrEntry.main(servers: { _ in [] })
