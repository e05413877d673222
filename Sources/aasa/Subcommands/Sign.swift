import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Sign: AASASubcommand {
        static let name = "sign"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Sign an AASA file exactly like the legacy openssl smime recipe.",
            discussion: """
                Reproduces `openssl smime -sign -inkey KEY -signer CERT -certfile CHAIN -noattr -nodetach \
                -outform DER`: for RSA keys the output is byte-identical to that command's. Without \
                --binary the content is signed as MIME text, so its line ends become CRLF (as OpenSSL \
                does); --binary signs the bytes as they are. \
                The passphrase of an encrypted key or PKCS#12 file comes from --passphrase-env, \
                --passphrase-file, or a prompt on the terminal; never from the command line. \
                The output is written atomically: on failure nothing is written.

                Several inputs, a directory or --out-dir make a batch: the key and certificates are \
                loaded once, --jobs files are signed at a time, each signed file is written under \
                --out-dir with the same name as its input (relative to the directory it was found in), \
                a failure on one file writes nothing for it and does not stop the others, and a \
                summary ends on standard error. See \(InstalledDocs.page("performance.md")).

                An input that is already a signed file is refused (status 2): signing it again would wrap \
                one signature in another; --wrap-signed does it anyway.

                Exit status: 0 signed, 1 refused by --strict, 2 unreadable or unusable input (an already \
                signed input included); for a batch, the worst of its files.

                EXAMPLES (at the root of a clone of the repository):
                  aasa sign examples/apple-app-site-association.json -o - --outform pem \\
                    --key certs/leaf-rsa.key --cert certs/leaf-rsa.pem --chain certs/chain.pem
                """
        )

        @Argument(
            help: ArgumentHelp(
                "The JSON to sign ('-' for standard input); several files or directories with --out-dir.",
                valueName: "in"))
        var inputs: [String] = []

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("Where to write the signed file ('-' for standard output).", valueName: "out"))
        var output: String?

        @Option(
            name: .customLong("out-dir"),
            help: ArgumentHelp(
                "Write each signed file here, under the name of its input (for several inputs or a directory).",
                valueName: "dir"))
        var outDirectory: String?

        @Option(
            help: ArgumentHelp(
                "The signer's private key (PEM or DER; PKCS#1, PKCS#8, encrypted PKCS#8).", valueName: "key"))
        var key: String?

        @Option(help: ArgumentHelp("The signer's certificate (PEM or DER).", valueName: "cert"))
        var cert: String?

        @Option(
            help: ArgumentHelp(
                "Intermediate certificates to include (PEM or DER), written before the signer's.", valueName: "chain"))
        var chain: String?

        @Option(
            help: ArgumentHelp(
                "A PKCS#12 bundle with the key, certificate and chain, instead of --key/--cert.", valueName: "p12"))
        var pkcs12: String?

        @Flag(help: "Sign the bytes as they are (openssl -binary); default: MIME text with CRLF line ends.")
        var binary = false

        @Option(help: "Digest (sha1 only with --allow-sha1).")
        var digest: DigestAlgorithm = .sha256

        @Flag(name: .customLong("allow-sha1"), help: "Allow --digest sha1 (broken; for legacy verifiers only).")
        var allowSHA1 = false

        @Option(help: "Output encoding (smime: an S/MIME message, as openssl smime -outform SMIME writes it).")
        var outform: PKCS7Encoding = .der

        @Flag(
            name: .customLong("signed-attributes"),
            help:
                "Add signed attributes (content type, signing time, message digest, S/MIME capabilities); the recipe's -noattr omits them."
        )
        var signedAttributes = false

        @Flag(help: "Refuse to sign with a certificate that is not valid now.")
        var strict = false

        @Flag(
            name: .customLong("wrap-signed"),
            help: "Sign an input that is already a signed file, wrapping its signature in another (refused by default)."
        )
        var wrapSigned = false

        @OptionGroup
        var clobber: ClobberOptions

        @OptionGroup(title: "Passphrase")
        var passphrase: PassphraseOptions

        @OptionGroup(title: "Batch")
        var batch: BatchOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        /// Several inputs, or a directory without -o, or --out-dir.
        private var isBatch: Bool {
            batch.filesFrom != nil || inputs.count > 1 || outDirectory != nil
                || (output == nil && inputs.contains(where: isDirectory))
        }

        func validate() throws {
            if !batch.hasInputs(inputs) {
                throw ValidationError(
                    "give the JSON to sign ('-' for standard input), or several files or directories with --out-dir DIR"
                )
            }
            switch (key, cert, pkcs12) {
            case (.some, .some, nil), (nil, nil, .some): break
            case (_, _, .some): throw ValidationError("give either --pkcs12 or --key with --cert, not both")
            default: throw ValidationError("give the signer as --key KEY --cert CERT, or as --pkcs12 BUNDLE")
            }
            if chain != nil && pkcs12 != nil {
                throw ValidationError("--chain goes with --key/--cert; a PKCS#12 bundle carries its own chain")
            }
            if digest == .sha1 && !allowSHA1 {
                throw ValidationError(
                    "SHA-1 is broken for signatures; add --allow-sha1 if a legacy verifier really needs it")
            }
            if isBatch {
                if output != nil {
                    throw ValidationError(
                        "-o names one signed file; for several inputs or a directory use --out-dir DIR")
                }
                if outDirectory == nil {
                    throw ValidationError(
                        "several inputs or a directory need --out-dir DIR (each signed file keeps its input's name)")
                }
                if inputs.contains("-") {
                    throw ValidationError("standard input ('-') has no name: sign it alone, with -o")
                }
            } else if output == nil {
                throw ValidationError("give -o FILE for the signed file ('-' for standard output), or --out-dir DIR")
            }
            if output == "-" && outform == .der && isatty(STDOUT_FILENO) == 1 {
                throw ValidationError("refusing to write binary DER to a terminal: give -o FILE or --outform pem")
            }
        }

        /// One road for one file and for many (swift-format's Frontend): the identity loaded and
        /// what depends on the signer alone checked once, each file's work given to
        /// ``BatchFrontend``. A single file goes to `-o` (standard output for `-`), read as named
        /// (a directory named with `-o` is refused as input); a batch's, under `--out-dir`, with a
        /// note per file and a summary.
        func run() throws {
            let single = !isBatch
            var identity: SigningIdentity?
            var destinations: [String] = []
            var expansion = BatchExpansion()
            if single {
                expansion.items = [BatchInput(path: inputs[0], relative: BatchInput.ownName(inputs[0]), explicit: true)]
            } else {
                expansion = batch.expand(inputs, what: "sign")
            }
            let items = expansion.items
            let signerPath = cert ?? pkcs12 ?? batch.firstInput(inputs)
            let options = SigningOptions(
                digest: digest, binary: binary, signedAttributes: signedAttributes, encoding: outform)
            let limits = self.limits.values
            let otherInputs = [key, cert, chain, pkcs12, passphrase.file]
            try reportingFailures(path: batch.firstInput(inputs)) {
                if let outDirectory, !single {
                    destinations = try BatchInput.destinations(for: items, in: outDirectory, otherInputs: otherInputs)
                } else if let output {
                    try OutputFile.ensureDistinct(output: output, from: inputs + otherInputs)
                    destinations = items.map { _ in output }
                }
                let loaded = try loadIdentity()
                // What depends on the signer alone is said once, not once per file (for a single
                // file, in its place among the file's own checks).
                for check in SigningCheck.checks(content: Data("{}".utf8), identity: loaded, options: options) {
                    switch check {
                    case .certificateNotValid:
                        if strict {
                            throw CLIFailure(
                                signerPath, "refusing to sign (--strict): \(check)", status: ExitStatus.checkFailed)
                        }
                        if !single { Diagnostics.emit(signerPath, .warning, check.description) }
                    case .weakDigest:
                        if !single { Diagnostics.emit(batch.firstInput(inputs), .warning, check.description) }
                    case .contentTooLarge, .contentNotJSON, .contentAlreadySigned:
                        break
                    }
                }
                identity = loaded
            }
            guard let identity else { throw ExitStatus.badInput }
            var frontend = BatchFrontend("sign", expansion)
            let (noClobber, wrapSigned, directory) = (clobber.noClobber, wrapSigned, single ? nil : outDirectory)
            frontend.run(Array(zip(items, destinations)), threads: batch.workerCount) { item, destination in
                var output = BatchOutput()
                do {
                    let content = try limits.read(item)
                    for check in SigningCheck.checks(
                        content: content, identity: identity, options: options, limits: limits.library)
                    {
                        switch check {
                        case .contentAlreadySigned where !wrapSigned: throw Self.alreadySigned(item.path, check)
                        case .contentTooLarge, .contentNotJSON, .contentAlreadySigned:
                            output.emit(item.path, .warning, check.description)
                        case .certificateNotValid where single: output.emit(signerPath, .warning, check.description)
                        case .weakDigest where single: output.emit(item.path, .warning, check.description)
                        case .certificateNotValid, .weakDigest: break  // said once, above
                        }
                    }
                    let signed = try identity.sign(content, options: options)
                    guard let directory else {
                        try output.write(signed, to: destination, noClobber: noClobber)
                        output.outcome = "signed"
                        return output
                    }
                    try OutputFile.write(
                        signed, under: directory, relative: item.relative, path: destination,
                        policy: OutputFile.Policy(durable: false, noClobber: noClobber))
                    output.emit(item.path, .note, "signed → \(destination)")
                    output.outcome = "signed"
                } catch {
                    output.fail(CLIFailure(item.path, describing: error), outcome: "unreadable")
                }
                return output
            }
            frontend.finishOutput()
            guard !single else { return try frontend.exit() }
            OutputFile.flush(destinations)
            let tally = frontend.tally
            let unreadable = tally.count("unreadable")
            frontend.summarize([
                "\(tally.count("signed")) of \(Counted.files(tally.total)) signed",
                unreadable == 0
                    ? ""
                    : "\(unreadable) unreadable or not signed (nothing written for \(unreadable == 1 ? "it" : "them"))",
            ])
            try frontend.exit()
        }

        /// The refusal of an input that is already signed (status 2), with the ways out.
        static func alreadySigned(_ path: String, _ check: SigningCheck) -> CLIFailure {
            CLIFailure(
                path,
                "refusing to sign: \(check); 'aasa convert' takes its JSON out to sign, --wrap-signed signs it anyway")
        }

        private func loadIdentity() throws -> SigningIdentity {
            if let pkcs12 {
                SecretFile.warnIfExposed(pkcs12, what: "private key file")
                let data = try InputFile.read(pkcs12, what: "PKCS#12 file", limit: 1024 * 1024)
                let bundle = try passphrase.load(pkcs12) { try PKCS12Bundle(data: data, passphrase: $0) }
                do {
                    return try SigningIdentity(bundle: bundle)
                } catch let error as AASAError {
                    throw CLIFailure(pkcs12, error)
                }
            }
            guard let key, let cert else { throw ExitStatus.usage }
            let certificate: X509Certificate
            var chainCertificates: [X509Certificate] = []
            do {
                certificate = try X509Certificate.load(
                    from: InputFile.read(cert, what: "certificate", limit: 1024 * 1024))[0]
            } catch let error as AASAError {
                throw CLIFailure(cert, error)
            }
            if let chain {
                do {
                    chainCertificates = try X509Certificate.load(
                        from: InputFile.read(chain, what: "chain", limit: 4 * 1024 * 1024))
                } catch let error as AASAError {
                    throw CLIFailure(chain, error)
                }
            }
            SecretFile.warnIfExposed(key, what: "private key file")
            var keyData = try InputFile.read(key, what: "private key", limit: 1024 * 1024)
            defer { keyData.resetBytes(in: 0..<keyData.count) }
            let privateKey = try passphrase.load(key) { try PrivateKey(data: keyData, passphrase: $0) }
            do {
                return try SigningIdentity(key: privateKey, certificate: certificate, chain: chainCertificates)
            } catch let error as AASAError {
                throw CLIFailure(key, error)
            }
        }
    }
}

extension DigestAlgorithm: ExpressibleByArgument {}
extension PKCS7Encoding: ExpressibleByArgument {}
