#if FUZZING
    /// No built-in catalogs in a libFuzzer build (the plugin's tool cannot be linked with
    /// libFuzzer's `main`): messages are English, catalogs come from AGGR_LOCALE_DIR.
    enum EmbeddedCatalogs {
        static let files: [String: String] = [:]
    }
#endif
