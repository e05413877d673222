import ArgumentParser

/// Whether a command's output files may replace files that exist.
struct ClobberOptions: ParsableArguments {
    @Flag(
        name: .customLong("no-clobber"),
        help: "Never replace an existing output file: that output is an error (exit 2) and the file stays as it is.")
    var noClobber = false
}
