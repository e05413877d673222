import FuzzSupport

@main
enum Main {
    static func main() { runHarness("FuzzSignedData", fuzzOneInput) }
}
