import Aggregator
import AggregatorTestSupport
import XCTest

/// Several `aggr serve` processes on one PostgreSQL database (behind a load balancer): a
/// reader app's token from one is good at the others, as it is signed with the installation's
/// secret, which the database keeps. (Browser sessions are still kept in each process's
/// memory: a browser signs in at each one.)
final class SharedServeTests: ServeTestCase {
    func testTwoServesOnOneDatabaseAcceptEachOthersReaderTokens() throws {
        let cluster = try PostgresCluster.shared.get()
        runner.environment.merge(cluster.environment) { $1 }
        runner.environment["AGGR_DB"] = try cluster.createDatabase()
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let password = ["AGGR_PASSWORD": "PASSW0RD-S3CRET"]
        let first = try startServe(environment: password)
        let firstProcess = try XCTUnwrap(serve)
        defer {
            firstProcess.send(SIGTERM)
            _ = firstProcess.waitForExit(timeout: 10)
        }
        let second = try startServe(environment: password)
        XCTAssertNotEqual(first, second)

        let app = try session(first).send("POST", "/accounts/ClientLogin", form: [("Email", "aggr"), ("Passwd", "PASSW0RD-S3CRET")])
        let auth = try XCTUnwrap(app.body.split(separator: "\n").first { $0.hasPrefix("Auth=") }).dropFirst(5)
        let info = try session(second).send("GET", "/reader/api/0/user-info", headers: [("Authorization", "GoogleLogin auth=\(auth)")])
        XCTAssertEqual(info.status, 200, "a reader app's token from the first serve works at the second")
    }
}
