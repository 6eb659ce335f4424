import AggregatorTestSupport
import CLibFuzzer
import Foundation

/// `aggr-fuzz TARGET [libFuzzer options and corpus directories…]`.
///
/// Built with `-sanitize=fuzzer,address -DFUZZING` (see `make fuzz`), it hands control to
/// libFuzzer with the named target; in an ordinary build it replays the files given after the
/// target name, so a crasher can be reproduced in a debugger without the fuzzing toolchain.
@main
enum FuzzMain {
    static func main() {
        var arguments = CommandLine.arguments
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("usage: aggr-fuzz TARGET [options] [corpus…]\ntargets: \(names)\n".utf8))
            exit(64)
        }
        arguments.remove(at: 1)
        #if FUZZING
            FuzzSelection.target = target
            var argc = Int32(arguments.count)
            var cStrings = arguments.map { strdup($0) } + [nil]
            cStrings.withUnsafeMutableBufferPointer { buffer in
                var argv = buffer.baseAddress
                exit(LLVMFuzzerRunDriver(&argc, &argv, FuzzSelection.callback))
            }
        #else
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                target.run([UInt8](data))
                print("ran \(path)")
            }
        #endif
    }
}

/// The target chosen on the command line, read by libFuzzer's callback on its one thread.
enum FuzzSelection {
    nonisolated(unsafe) static var target = FuzzTarget.json

    static let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        FuzzSelection.target.run(bytes)
        return 0
    }
}

/// libFuzzer's own main (linked by -sanitize=fuzzer) needs this symbol even though
/// `LLVMFuzzerRunDriver` is used instead; it serves the same target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzSelection.callback(data, size)
}
