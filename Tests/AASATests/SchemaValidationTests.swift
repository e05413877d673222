import AASATestSupport
import Foundation
import Testing

/// The validators the output tests rely on must be able to say no: a test that validates
/// against a schema proves nothing if the validator passes everything or did not run.
@Suite("schema validators")
struct SchemaValidationTests {
    static let schema = Data(
        #"""
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
         "required": ["schemaVersion"], "properties": {"schemaVersion": {"const": 1}}}
        """#.utf8)

    @Test("JSON Schema: a valid document passes, an invalid one fails naming the place, as do bad JSON lines")
    func jsonSchema() throws {
        try withScratchFile(Self.schema) { schema in
            #expect(SchemaValidation.json(Data(#"{"schemaVersion": 1}"#.utf8), schema: schema).valid)
            let wrong = SchemaValidation.json(Data(#"{"schemaVersion": 2}"#.utf8), schema: schema)
            #expect(!wrong.valid)
            #expect(wrong.messages.contains("/schemaVersion"), "\(wrong)")
            #expect(!SchemaValidation.json(Data("{".utf8), schema: schema).valid)
            let lines = Data("{\"schemaVersion\": 1}\n{\"other\": 1}\n".utf8)
            let outcome = SchemaValidation.json(lines, schema: schema, lines: true)
            #expect(!outcome.valid && outcome.messages.contains("-:2"), "\(outcome)")
            #expect(SchemaValidation.json(Data("{\"schemaVersion\": 1}\n".utf8), schema: schema, lines: true).valid)
        }
        let missing = SchemaValidation.json(Data("{}".utf8), schema: URL(fileURLWithPath: "no-such-schema.json"))
        #expect(!missing.valid && missing.messages.contains("exit 2"), "\(missing)")
    }

    @Test("XML Schema (xmllint): a valid document passes, an invalid one fails")
    func xmlSchema() throws {
        let xsd = Data(
            """
            <?xml version="1.0"?>
            <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
              <xs:element name="a"><xs:complexType><xs:attribute name="n" type="xs:int" use="required"/></xs:complexType></xs:element>
            </xs:schema>
            """.utf8)
        try withScratchFile(xsd) { schema in
            #expect(SchemaValidation.xml(Data("<a n=\"1\"/>".utf8), schema: schema).valid)
            #expect(!SchemaValidation.xml(Data("<a n=\"x\"/>".utf8), schema: schema).valid)
            #expect(!SchemaValidation.xml(Data("<b/>".utf8), schema: schema).valid)
        }
    }

    private func withScratchFile(_ data: Data, _ body: (URL) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-schema-\(UUID().uuidString)")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try body(url)
    }
}
