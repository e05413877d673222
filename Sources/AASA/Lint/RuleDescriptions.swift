/// Each rule's full description: when it fires and why it matters, in a few sentences, the
/// text of its section in docs/rules.md (a test keeps the two the same). Paragraphs are
/// separated by a blank line.
extension RuleRegistry {
    static let fullDescriptions: [RuleID: String] = [
        "invalid-json":
            "Fires when the file, or a signed file's embedded content, does not parse as strict JSON (RFC 8259). Comments (`//`, `/* */`), trailing commas, single quotes, unquoted keys, text after the closing `}`, control characters inside strings, and text that is not UTF-8 all count. The message gives the parser's reason. The location is where parsing stopped.\n\niOS reads the file with a strict JSON parser. If the file does not parse, iOS uses nothing in it, for any service. Browsers and many JSON libraries accept some of these mistakes, so a file can look fine when you open it and still fail on a device. On Linux, Foundation's parser accepts trailing commas too.",
        "root-not-object":
            "Fires when the top-level value is an array, string, number, boolean or `null` instead of an object. No other rule runs after this one.\n\niOS looks for `applinks`, `webcredentials`, `activitycontinuation` and `appclips` as keys of a top-level object. Any other top level gives it nothing to use.",
        "byte-order-mark":
            "Fires when the file, or a signed file's embedded content, starts with the bytes `EF BB BF`, a UTF-8 byte-order mark (U+FEFF). Linting continues with the text after it.\n\nRFC 8259 says JSON sent over a network must not start with a byte-order mark, and Apple does not say whether iOS accepts one. Windows editors often add the mark without showing it, so the file looks right when you open it.",
        "file-too-large":
            "Fires when the file is larger than 131,072 bytes (128 KB). For a signed file, the limit applies to the whole signed file, certificates included. The message gives the size and the limit. The library can use a different limit (`LintOptions.maximumFileSize`).\n\nApple documents 128 KB, uncompressed, as the most an `apple-app-site-association` file may be. A file that is too large is not used at all, so every association for the domain stops working.",
        "signed-file":
            "Fires when the file is PKCS#7 SignedData: DER, PEM, or S/MIME. The linter then lints the embedded JSON, and the other findings' lines and columns refer to that JSON (see Locations).\n\niOS 8 required a signed file, for Handoff and shared web credentials. From iOS 9, a plain JSON file served over HTTPS is enough, and Apple's current documentation describes only plain JSON. A signed file is larger, and its signing certificate expires. Also, tools and CDNs that expect JSON cannot read it.",
        "unreadable-signed-file":
            "Fires when the file is PKCS#7 but no JSON can be read from it.\n\nNo version of iOS can get associations out of such a file.",
        "no-known-service":
            "Fires when the top-level object has none of the keys `applinks`, `webcredentials`, `activitycontinuation` and `appclips`.\n\nThe file then associates no app with the domain. Often a service name is misspelled or in the wrong case (`appLinks`, `applink`). Keys are case-sensitive, and `unknown-top-level-key` suggests the likely name.",
        "unknown-top-level-key":
            "Fires when a top-level key is not one of the four services. If a key is close to a service name, the message suggests that name.\n\niOS ignores the key. This is harmless, unless the key is a misspelled service.",
        "unknown-key":
            "Fires when a key below the top level is not defined by the format, and the key is not inside a components rule (those are `unknown-component-key`).\n\niOS ignores the key. When the key is a misspelling, what it was meant to say is lost. For example, an entry with `appIds` has no app identifiers at all.",
        "wrong-type":
            "Fires when a key the format defines has a value of the wrong JSON type. Examples are `appIDs` as a string instead of an array of strings, `exclude` as `\"true\"` instead of `true`, and a `details` entry that is not an object. The message reads \"expected X, found Y\".\n\niOS cannot use the value. Depending on the key, it skips the value or rejects the whole entry or section.",
        "duplicate-key":
            "Fires when one JSON object has the same key more than once, anywhere in the file. The finding points at the second occurrence and every later one.\n\nRFC 8259 leaves the result undefined. Parsers keep one of the values, usually the last, and silently drop the others. The linter reads the last. Apple does not document which one iOS reads. This often happens when two blocks of a file are merged, for example two `components` arrays or two `applinks` sections.",
        "empty-details":
            "Fires when `applinks.details` is `[]`, or `{}` in the legacy form.\n\nNo app handles universal links for the domain. This can be deliberate, for example on a staging domain, but it is usually a mistake in a template.",
        "missing-details":
            "Fires when the `applinks` object has no `details` key at all.\n\n`details` is where the apps and their URLs are listed. Without it the section names no app and no URL, and no universal link works for the domain.",
        "legacy-apps-key":
            "Fires when `applinks` has an `apps` key, of any value.\n\niOS 9–12 required `\"apps\": []` in `applinks`. iOS 13 and later ignore it, and Apple's current documentation no longer shows it.",
        "apps-not-empty":
            "Fires when `applinks.apps` is an array with elements. App identifiers are often put there by mistake.\n\niOS 9–12 require `apps` to be an empty array, and the app identifiers go in `details`. Those versions may reject the `applinks` section otherwise. iOS 13 and later ignore `apps`, so the identifiers listed there do nothing on any version.",
        "legacy-details-dictionary":
            "Fires when `details` is an object whose keys are app identifiers and whose values hold `paths`. This is reported once for the file, not once per entry, and `legacy-appid` does not fire for these entries.\n\nThis is the form shown at WWDC 2015 (session 509, \"Seamless Linking to Your App\") before iOS 9 was released. Apple has documented an array of entries ever since. Current iOS versions are not documented to read the dictionary form, and the form cannot use `appIDs`, `components` or `defaults`.",
        "legacy-paths":
            "Fires when a `details` entry has `paths` and no `components`.\n\n`paths` is the iOS 9–12 format. iOS 13 and later still read it when an entry has no `components`. Its replacement, `components` (iOS 13+), can also match the query and the fragment, has `exclude` instead of the `NOT ` prefix, and works with `defaults` and substitution variables (iOS 14).",
        "paths-ignored-with-components":
            "Fires when a `details` entry has both `paths` and `components`.\n\niOS 13 and later use only `components` and ignore `paths` entirely. iOS 12 and earlier know only `paths`. The two lists easily drift apart, and then the same link behaves differently on different iOS versions.",
        "legacy-appid":
            "Fires when a `details` entry has `appID` and no `appIDs`. Entries of the legacy dictionary form are exempt, because their key is the app identifier and `legacy-details-dictionary` covers them.\n\n`appID`, one identifier, is the iOS 9–12 format. iOS 13 and later read `appIDs`, which can list several apps that share one set of rules, but fall back to `appID`.",
        "appid-and-appids":
            "Fires when a `details` entry has both `appID` and `appIDs`. The message says whether `appIDs` lists the `appID` value.\n\niOS 13 and later read only `appIDs`. iOS 12 and earlier read only `appID`. If the two disagree, different iOS versions open links in different apps.",
        "not-prefix-in-components":
            "Fires when a components `/` pattern starts with `NOT `.\n\n`NOT ` means \"exclude\" only in legacy `paths`. In `components` it is literal text, so the rule matches only URL paths that start with the letters `NOT `, which never happens. The page you meant to exclude is not excluded. A catch-all later in the list then opens it in the app.",
        "missing-appid":
            "Fires when a `details` entry names no app. Either it has neither `appIDs` nor `appID`, or its `appIDs` is an empty array and it has no `appID`. If the key is present but has the wrong type, only `wrong-type` fires.\n\nThe entry's rules apply to no app, so none of its links open an app.",
        "empty-appid":
            "Fires when an app identifier is `\"\"`, or only spaces. This applies in `appIDs`, `appID`, and the `apps` lists of `webcredentials`, `activitycontinuation` and `appclips`.\n\nAn empty identifier matches no app. This is usually a template placeholder that was never filled in.",
        "appid-without-bundle":
            "Fires when an app identifier in any service has no `.`. Examples are a bare bundle ID without its prefix, a bare Team ID, and a placeholder such as `\"beta\"`.\n\niOS compares each identifier with the app's full application identifier, `<App ID prefix>.<bundle ID>`, taken from its signature. An identifier without the bundle part cannot match, so the app is not associated.",
        "appid-prefix-format":
            "Fires when the part of an app identifier before the first `.` is not exactly 10 ASCII letters or digits. This is checked in every service: `applinks` (`appIDs`, `appID` and the legacy dictionary keys) and the `apps` of `webcredentials`, `activitycontinuation` and `appclips`.\n\nThe prefix is the App ID prefix, usually the Team ID, and it is always 10 characters. A shorter or longer prefix, a bundle ID without a prefix (`com.example.app`), or a prefix with spaces or dashes does not match the app's signed identifier. The association then silently fails for that app.",
        "duplicate-appid":
            "Fires when the same app identifier appears twice within `applinks`, or twice in one service's `apps` list. Within `applinks`, the check covers both separate entries and the same `appIDs` array. Each entry is counted by the identifiers iOS 13 and later read: its `appIDs`, or its `appID` when there is no `appIDs`. So an entry that repeats its `appID` in `appIDs` for older systems is not a duplicate. The same app in two different services is normal, and is not reported.\n\nWhen an app is listed in two entries, which rules apply to it depends on entry order. An edit to one entry can then have no effect. Inside one list, a repeat is harmless but shows a copy-and-paste slip.",
        "no-rules":
            "Fires when a `details` entry has neither `components` nor `paths`. If one of them is present with the wrong type, only `wrong-type` fires.\n\nWithout rules, no URL opens the entry's apps.",
        "catch-all-rule":
            "Fires when a components rule matches every URL.\n\niOS checks the rules in order and stops at the first one that matches.",
        "unreachable-rule":
            "Fires when a components rule comes after a catch-all (see `catch-all-rule`) in the same entry. It also fires when a legacy path comes after a path made only of `*`. Each unreachable rule or path is reported.\n\niOS stops at the first rule, or path, that matches. Anything after a rule that matches everything is never checked. This matters most for excludes and `NOT ` paths placed after `\"*\"`: the pages they were meant to keep on the web open in the app.",
        "unknown-component-key":
            "Fires when a components rule has a key other than `/`, `?`, `#`, `exclude`, `comment`, `caseSensitive` and `percentEncoded`. The message suggests the likely key: `path` → `/`, `query` → `?`, `fragment` → `#`, `excluded` → `exclude`.\n\niOS does not use the key. If it was meant as a pattern, the rule matches more than intended, because an omitted component means `*`. If it was meant as `exclude`, an exclude rule becomes an include.",
        "query-value-not-string":
            "Fires when a `?` dictionary has a value that is not a string, such as a number, boolean, `null`, array or object.\n\nEach value of the `?` dictionary is a pattern for that query item's value, and patterns are strings. If any value is not a string, iOS ignores the rule's whole `?` dictionary, so the rule does not constrain the query the way you wrote it.",
        "pattern-in-defaults":
            "Fires when `applinks.defaults`, or an entry's `defaults`, contains `/`, `?`, `#` or `exclude`. The message lists the rules that take it.\n\nSuch a key is the default of every rule below it that has none of its own: Apple documents `defaults` (iOS 14+) as \"a subclass of `components`\" that \"can contain any of its properties\", at the domain level (`applinks.defaults`) and the app level (an entry's `defaults`), the more specific overriding the less (applinks.Defaults), and observations of Apple's `swcutil` agree that domain defaults apply to every app's rules (issue #13 of this project). So `\"exclude\": true` in `applinks.defaults` turns every rule without its own `exclude` into an exclusion, and a `\"?\"` there constrains the query of every rule without its own. `match`, `diff`, `check` and `migrate` apply them as iOS does (matching.md); the finding is info because a reader of a rule alone does not see what it inherits. Before 0.3.0, aasa read these keys as having no effect.",
        "invalid-variable-name":
            "Fires when a key of `applinks.substitutionVariables` contains `$`, `(` or `)`.\n\nApple allows any character in a variable name except these three, which make up the `$(name)` reference syntax. No pattern can refer to such a variable.",
        "nested-variable":
            "Fires when a value of a substitution variable contains `$(`.\n\nA variable's values may contain the `*` and `?` wildcards, but not other variables. iOS does not expand them, so the value does not match what you meant.",
        "undefined-variable":
            "Fires when a components pattern uses a `$(name)` that is neither defined in `applinks.substitutionVariables` nor a built-in variable. The patterns checked are `/`, `#`, a `?` string, and the values of a `?` dictionary. The built-in variables are `alpha`, `upper`, `lower`, `alnum`, `digit`, `xdigit`, `region` and `lang`. If a defined or built-in name is close, the message suggests it. Legacy `paths` are not checked, because they have no variables.\n\niOS has nothing to substitute, so the pattern cannot match as intended. The usual cause is a typo or a change of case, since names are case-sensitive. Substitution variables also need iOS 14 (13.5 according to Apple's reference page). Older versions read `$(name)` as literal text.",
        "empty-variable":
            "Fires when a substitution variable's value is an empty array.\n\nA pattern that uses the variable has nothing to substitute, so it matches no URL.",
        "variable-shadows-builtin":
            "Fires when a custom variable has the name of a built-in one: `alpha`, `upper`, `lower`, `alnum`, `digit`, `xdigit`, `region` or `lang`.\n\nApple does not document whether `$(lang)` then means your list or the built-in list of language codes. Behaviour may differ between iOS versions.",
        "unterminated-variable":
            "Fires when a `$(` has no closing `)`. This is checked in components patterns (`/`, `#`, a `?` string, and `?` dictionary values) and in variable values. The message gives the position of the `$(` within the text.\n\nWithout the `)` it is not a variable reference, and the pattern cannot match as intended.",
        "empty-variable-value":
            "Fires when `\"\"` is one of a substitution variable's values.\n\nThe variable can then stand for nothing. `\"/$(food)/*\"` then also matches `//anything`, and `\"/menu$(food)\"` also matches `/menu`. This is rarely intended, and is usually a stray `\"\"` left in a list.",
        "signature-not-valid":
            "Fires when a signed file's signature itself does not verify: the content or the signature was altered (`tampered`), the file is damaged (`malformed`), its algorithm is not supported, or its signer is not among its certificates. The message carries the verdict code and its reason. A signature that is intact but whose certificates fail gets one of the `certificate-…` rules below instead: an untrusted or expired chain is not tampering.\n\nA device that checks the signature rejects the whole file, and what it says cannot be relied on.",
        "certificate-untrusted":
            "Fires when the signature is intact but its certificate chain does not reach a trusted root with the trust options given (the system roots by default). Every 2015-era signed file gets this today: their roots have left the trust stores.\n\nA device that checks the signature rejects the file. The content was not altered.",
        "certificate-expired":
            "Fires when the signature is intact but a certificate of its chain has expired at the time of the check (now, or `--at`).\n\nA device that checks the signature rejects the file.",
        "certificate-expiring-soon":
            "Fires when the signature is intact and the chain is valid at the time of the check, but a certificate of it expires within the days that `--min-days-valid` asks for. The message names the certificate and when it expires.\n\nDevices that check the signature still accept the file, until that date. A gate that asks for a margin fails now, with a rule of its own, so that a report tells a chain to renew from one that has already expired.",
        "certificate-not-yet-valid":
            "Fires when the signature is intact but a certificate of its chain is not valid yet at the time of the check.",
        "certificate-wrong-purpose":
            "Fires when the signature is intact but the signer certificate is not for the purpose asked (`--purpose`, TLS server by default: its extendedKeyUsage), or its keyUsage does not allow digital signatures.",
        "certificate-host-mismatch":
            "Fires when the signature is intact but the signer certificate does not name the domain given with `--domain`.",
        "no-effect":
            "Fires when no app gets anything from the file: no `applinks` app that some URL opens (every rule excluded or matching nothing, no rules, no entries), no app in `webcredentials`, `activitycontinuation` or `appclips`, after leaving out app identifiers iOS cannot use (blank, or without a bundle part). `check`, `audit` and `lint` add it from what the file does (`DocumentEffect`), so that a lint gate and the report agree; each part that causes it has its own lint finding too.\n\nThe file is valid JSON and may look fine, but no universal link opens an app and no other service works for the domain.",
        "signature-weak-algorithm":
            "Fires when the verification policy (security.md) accepted the signature with a warning: the SignerInfo digest, its signature algorithm or a certificate of the chain uses SHA-1, or a chain certificate has an RSA or DSA key under 2,048 bits; or `--allow-weak-crypto` let through what the policy refuses (MD2, MD4, MD5, keys under 1,024 bits). One finding per use; the message names the algorithm and the certificate.\n\nSHA-1 collisions are practical and keys under 2,048 bits are below every current baseline: verifiers that follow current policy reject such files.",
    ]
}
