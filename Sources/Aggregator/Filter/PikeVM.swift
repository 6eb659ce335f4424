/// Compiles a ``RegexNode`` to ``Instruction``s (Thompson's construction).
struct RegexCompiler {
    var program: [Instruction] = []

    mutating func emit(_ node: RegexNode) throws(LinearRegex.SyntaxError) {
        guard program.count < LinearRegex.maximumProgramSize else {
            throw LinearRegex.SyntaxError(message: localized("pattern too large (over \(LinearRegex.maximumProgramSize) steps)"), offset: 0)
        }
        switch node {
        case .empty: break
        case .scalar(let scalar): program.append(.scalar(scalar))
        case .set(let set): program.append(.set(set))
        case .word(let negated): program.append(.set(ScalarSet(negated: negated, includesWord: true)))
        case .any: program.append(.any)
        case .assertion(let assertion): program.append(.assert(assertion))
        case .concatenation(let parts):
            for part in parts { try emit(part) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split L2, …
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(branch)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let inner, let min, let max):
            for _ in 0..<min { try emit(inner) }
            if let max {
                // Each optional copy: split into it or past all that remain.
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, 0))
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, 0))
                try emit(inner)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
        guard program.count <= LinearRegex.maximumProgramSize else {
            throw LinearRegex.SyntaxError(message: localized("pattern too large (over \(LinearRegex.maximumProgramSize) steps)"), offset: 0)
        }
    }
}

/// Runs a program over a text, all threads in lock step: each position is visited once.
struct PikeVM {
    let program: [Instruction]
    let caseInsensitive: Bool
    private var current: ThreadList
    private var next: ThreadList

    init(program: [Instruction], caseInsensitive: Bool) {
        self.program = program
        self.caseInsensitive = caseInsensitive
        current = ThreadList(capacity: program.count)
        next = ThreadList(capacity: program.count)
    }

    /// Whether the program matches anywhere in `text` (an unanchored search).
    mutating func run(_ text: [Unicode.Scalar]) -> Bool {
        var stack: [Int] = []
        for position in 0...text.count {
            // A new thread starts at every position: the search is unanchored.
            if add(0, at: position, in: text, to: &current, stack: &stack) { return true }
            if position == text.count { break }
            let scalar = text[position]
            let folded = caseInsensitive ? RegexCase.fold(scalar) : scalar
            next.clear()
            for pc in current.members {
                let advances: Bool
                switch program[pc] {
                case .scalar(let expected): advances = caseInsensitive ? RegexCase.fold(expected) == folded : expected == scalar
                case .set(let set): advances = set.contains(scalar, caseInsensitive: caseInsensitive)
                case .any: advances = scalar != "\n"
                default: advances = false
                }
                if advances, add(pc + 1, at: position + 1, in: text, to: &next, stack: &stack) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Follows jumps, splits and assertions from `start`; true when a match is reached.
    private func add(_ start: Int, at position: Int, in text: [Unicode.Scalar], to list: inout ThreadList, stack: inout [Int]) -> Bool {
        stack.removeAll(keepingCapacity: true)
        stack.append(start)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assert(let assertion):
                if holds(assertion, at: position, in: text) { stack.append(pc + 1) }
            default: break
            }
        }
        return false
    }

    private func holds(_ assertion: RegexAssertion, at position: Int, in text: [Unicode.Scalar]) -> Bool {
        switch assertion {
        case .lineStart, .textStart: return position == 0
        case .textEnd: return position == text.count
        case .lineEnd, .textEndBeforeNewline:
            return position == text.count || (position == text.count - 1 && text[position] == "\n")
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && NamedClass.isWord(text[position - 1])
            let after = position < text.count && NamedClass.isWord(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}

/// A set of program counters that keeps insertion order (a sparse set: O(1) clear).
struct ThreadList {
    private(set) var members: [Int] = []
    private var present: [Bool]

    init(capacity: Int) {
        present = Array(repeating: false, count: capacity)
        members.reserveCapacity(capacity)
    }

    /// Adds `pc`; false when it was already there.
    mutating func insert(_ pc: Int) -> Bool {
        if present[pc] { return false }
        present[pc] = true
        members.append(pc)
        return true
    }

    mutating func clear() {
        for pc in members { present[pc] = false }
        members.removeAll(keepingCapacity: true)
    }
}
