import AASA
import Foundation

/// One run of a command as a report format writes it: every input with its findings, the
/// inputs that could not be read, and what the run was (``ReportContext``), in input order.
public struct Report: Sendable {
    public var context: ReportContext
    public var subjects: [ReportSubject]
    public var unreadable: [UnreadableInput]

    public init(context: ReportContext, subjects: [ReportSubject] = [], unreadable: [UnreadableInput] = []) {
        self.context = context
        self.subjects = subjects
        self.unreadable = unreadable
    }
}

/// What a report says about the run itself.
public struct ReportContext: Sendable {
    /// The command that found the findings (`lint`, `check`, `verify`, `audit`): JUnit's
    /// class names, Markdown's heading.
    public var command: String
    /// The rules the command can report, with their help and links.
    public var rules: RuleBook
    /// The lowest severity that fails an input (JUnit failures, Markdown's result column).
    public var failOn: Severity
    /// The tool's name and version (SARIF's driver).
    public var toolName: String
    public var toolVersion: String
    /// The directory relative input paths are relative to (SARIF's `%SRCROOT%`).
    public var workingDirectory: String
    /// When the report was made (JUnit's timestamp).
    public var date: Date

    public init(
        command: String, rules: RuleBook, failOn: Severity = .error, toolName: String = "aasa",
        toolVersion: String = AASAVersion.number,
        workingDirectory: String = FileManager.default.currentDirectoryPath, date: Date = Date()
    ) {
        self.command = command
        self.rules = rules
        self.failOn = failOn
        self.toolName = toolName
        self.toolVersion = toolVersion
        self.workingDirectory = workingDirectory
        self.date = date
    }

    /// What an input is called: a domain in an audit, a file otherwise.
    var inputNoun: String { command == "audit" ? "domain" : "file" }
}

/// An input that could not be read, and why (already one line on standard error in the CLI).
public struct UnreadableInput: Sendable, Equatable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}
