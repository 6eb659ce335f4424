/// Counts shortened as readers of the current language expect: `1.2k`, `15k`, `3.4M` in
/// English; `1.2万`, `3.4亿` in Chinese, where 万 (10⁴) and 亿 (10⁸) are the steps.
///
/// The steps come from the catalog's `X-Count-Units` header (`10000=万 100000000=亿`), so a
/// translator sets them with the language; English's are `1000=k 1000000=M`.
public enum CountFormat {
    /// `count` in at most five or six cells; below the first step, the digits as they are.
    public static func compact(_ count: Int) -> String {
        let units = Localization.current.countUnits
        guard let (size, name) = units.last(where: { count >= $0.size }) else { return String(count) }
        let tenths = Int((Double(count) / Double(size) * 10).rounded())
        // 1.2k, but 15k: a tenth is noise once there are two digits.
        if tenths >= 100 || tenths % 10 == 0 { return "\(tenths / 10)\(name)" }
        return "\(tenths / 10).\(tenths % 10)\(name)"
    }
}
