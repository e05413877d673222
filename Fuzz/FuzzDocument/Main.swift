import FuzzSupport

@main
enum Main {
    static func main() { runHarness("FuzzDocument", fuzzOneInput) }
}
