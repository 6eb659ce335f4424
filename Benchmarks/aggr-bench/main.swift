import Aggregator
import AggregatorTestSupport
import Foundation

/// `make bench`: measures ingest rate, whole-process timeline latency on a 1M-item
/// database and full-text query latency, each phase in its own process so its wall time
/// and peak RSS are its own.
let arguments = CommandLine.arguments
let phase = arguments.count > 1 ? arguments[1] : "all"

switch phase {
case "ingest":
    try BenchPhases.ingest(database: arguments[2], count: Int(arguments[3])!, report: true)
case "fts":
    try BenchPhases.fullTextQueries(database: arguments[2])
case "all", "--aggr":
    let aggr = arguments.firstIndex(of: "--aggr").map { arguments[$0 + 1] } ?? ".build/release/aggr"
    try BenchRun(aggr: aggr).run()
default:
    FileHandle.standardError.write(Data("usage: aggr-bench [--aggr PATH] | ingest DB COUNT | fts DB\n".utf8))
    exit(64)
}
