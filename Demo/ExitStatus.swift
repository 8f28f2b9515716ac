/// The exit status of a run; see `--help`.
enum ExitStatus: Int32 {
    /// Every item was loaded and every invariant held.
    case success = 0
    /// An invariant broke.
    case invariantBroken = 1
    /// The command line was wrong.
    case usage = 2
    /// A page still failed after the allowed retries (or the run could not go on).
    case gaveUp = 3
}
