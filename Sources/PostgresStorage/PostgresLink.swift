import Aggregator
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// One connection to a PostgreSQL database, used by one caller at a time and opened again
/// when the server closed it; the stores of one process's users share it.
final class PostgresLink: @unchecked Sendable {
    let address: PostgresAddress
    private let lock = NSLock()
    private var connection: PostgresConnection?
    static let logger: Logger = {
        var logger = Logger(label: "aggr.postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// Connects to `address` (failing now, with the server's reason, when it cannot).
    init(address: PostgresAddress) throws {
        self.address = address
        connection = try Self.connect(address)
    }

    deinit {
        // postgres-nio requires a connection closed before it is released.
        if let connection { Self.close(connection) }
    }

    /// Runs `body` with the connection (reconnecting when the last one was closed), one
    /// caller at a time; server errors come back as ``StoreError``s naming the database.
    func run<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if let current = connection, current.isClosed {
            Self.close(current)
            connection = nil
        }
        if connection == nil { connection = try Self.connect(address) }
        let session = PostgresSession(connection: connection!, logger: Self.logger, place: address.display)
        do {
            return try body(session)
        } catch {
            if let current = connection, current.isClosed {
                Self.close(current)
                connection = nil
            }
            throw PostgresStore.storeError(error, at: address.display)
        }
    }

    private static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        _ = try? closing.wait()
    }

    private static func connect(_ address: PostgresAddress) throws -> PostgresConnection {
        do {
            return try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: address.configuration(), id: 1, logger: logger
            ).wait()
        } catch let error as PSQLError {
            throw PostgresStore.storeError(error, at: address.display)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: address.display, message: SecretRedactor.redactURLs(in: localized("cannot connect: \(error)")))
        }
    }
}
