// The start-up floor `make bench` measures aggr against: a static Swift program that links
// Foundation and prints one line, built the way aggr's release is (`-static-stdlib`).
import Foundation

print("aggr-floor " + ProcessInfo.processInfo.processName)
