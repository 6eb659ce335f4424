import AggregatorTestSupport
import Foundation
import XCTest

/// Every input that once crashed a parser under libFuzzer (`make fuzz` writes them to
/// Fuzz/Crashers/<target>/) is replayed here, and each target gets a short deterministic
/// run of mutated seeds, so the harness itself cannot rot.
final class FuzzRegressionTests: XCTestCase {
    func testEveryCrasherRunsCleanly() throws {
        let root = SharedFixtures.repositoryRoot()
        var replayed = 0
        for target in FuzzTarget.allCases {
            let directory = "\(root)/\(target.crasherDirectory)"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where !name.hasPrefix(".") {
                let data = try XCTUnwrap(FileManager.default.contents(atPath: "\(directory)/\(name)"))
                target.run([UInt8](data))
                replayed += 1
            }
        }
        print("replayed \(replayed) crasher inputs")
    }

    func testTargetsSurviveMutatedInputs() {
        var generator = SplitMix(seed: 0x5EED)
        let seeds: [[UInt8]] = [
            Array(#"{"a": [1, 2.5e3, "\u00e9\ud83d\ude00", {"b": null}], "a": true}"#.utf8),
            Array(#"title ~ "swift" and not (replies > 5 or tags has "x")"#.utf8),
            Array("(a+)+$\naaaaaaaaaaaaaaaaaaaaaaaa!".utf8),
            Array(#"<rss version="2.0"><channel><item><title>t</title><link>/x</link></item></channel></rss>"#.utf8),
            Array(#"<div class="cell item"><span class="item_title"><a href="/t/1#reply2">标题</a></span></div>"#.utf8),
            Array("Fri, 20 Nov 2026 09:30:00 +0800".utf8),
            TestImage.png(width: 3, height: 2) { x, y in [UInt8(x * 80), UInt8(y * 120), 40, 255] },
            TestImage.redGIF,
        ]
        for target in FuzzTarget.allCases {
            for seed in seeds {
                for _ in 0..<40 {
                    var bytes = seed
                    for _ in 0..<(1 + generator.next() % 4) {
                        let position = Int(generator.next() % UInt64(bytes.count + 1))
                        switch generator.next() % 3 {
                        case 0 where position < bytes.count: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                        case 1: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                        default: if position < bytes.count { bytes.remove(at: position) }
                        }
                    }
                    target.run(bytes)
                }
            }
        }
    }
}

/// A small deterministic random generator (SplitMix64) for repeatable mutations.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
