import ArgumentParser
import Foundation

/// How the batch options turn the inputs named on the command line into the batch's files.
extension BatchOptions {
    /// The files the inputs name: each file as given, each directory's regular files (sorted,
    /// filtered by ``include``, recursing unless ``noRecurse``), then those the `--files-from`
    /// list names, the same way. A directory that cannot be read or (when `emptyIsFailure`)
    /// holds no file to take, and an entry of the list that names no file, are reported in
    /// `failures`.
    ///
    /// With `streaming`, the list is not read here: the batch reads it as its workers take
    /// files (``BatchExpansion/list``), so that memory does not grow with its length. The
    /// commands that write outputs read it whole first, because every output is checked
    /// against the others and the inputs before anything is written
    /// (``BatchInput/destinations(for:in:otherInputs:)``).
    func expand(_ inputs: [String], what: String, emptyIsFailure: Bool = true, streaming: Bool = false)
        -> BatchExpansion
    {
        var expansion = BatchExpansion()
        expansion.progress = progress
        for input in inputs {
            expansion.add(expanding(input, what: what, emptyIsFailure: emptyIsFailure))
        }
        guard let filesFrom else { return expansion }
        let list: FileList
        do {
            list = try FileList(path: filesFrom, null: null)
        } catch {
            expansion.failures.append(CLIFailure(filesFrom, describing: error))
            return expansion
        }
        let listed = ListedInputs(list, options: self, what: what, emptyIsFailure: emptyIsFailure)
        if streaming {
            expansion.list = listed
        } else {
            listed.drain(into: &expansion)
        }
        return expansion
    }

    /// What one input names: itself when it is no directory, else the directory's files.
    func expanding(_ input: String, what: String, emptyIsFailure: Bool) -> ExpandedInput {
        var expanded = ExpandedInput()
        guard isDirectory(input) else {
            expanded.items.append(
                BatchInput(path: input, relative: BatchInput.ownName(input), explicit: true))
            return expanded
        }
        do {
            let (found, unreadable, leftOut) = try BatchInput.files(
                under: input, recursive: !noRecurse, include: include)
            expanded.failures += unreadable
            expanded.leftOut += leftOut
            if found.isEmpty && unreadable.isEmpty && emptyIsFailure {
                let filter = include.isEmpty ? "" : " matching \(include.joined(separator: " or "))"
                expanded.failures.append(CLIFailure(input, "no file\(filter) to \(what) in this directory"))
            }
            for relative in found {
                expanded.items.append(
                    BatchInput(
                        path: (input as NSString).appendingPathComponent(relative), relative: relative, explicit: false,
                        root: input)
                )
            }
        } catch let failure as CLIFailure {
            expanded.failures.append(failure)
        } catch {
            expanded.failures.append(CLIFailure(input, "cannot read the directory: \(error.localizedDescription)"))
        }
        return expanded
    }
}
