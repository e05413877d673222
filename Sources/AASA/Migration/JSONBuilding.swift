/// Small constructors for JSON nodes made by the migration (they have no source position).
extension JSONNode {
    /// The position given to generated nodes: line 0, column 0.
    static let generatedPosition = TextPosition(offset: 0, line: 0, column: 0)

    static func string(_ text: String) -> JSONNode { JSONNode(.string(text), at: generatedPosition) }

    static func bool(_ value: Bool) -> JSONNode { JSONNode(.bool(value), at: generatedPosition) }

    static func array(_ elements: [JSONNode]) -> JSONNode { JSONNode(.array(elements), at: generatedPosition) }

    static func object(_ members: [(String, JSONNode)]) -> JSONNode {
        JSONNode(
            .object(members.map { JSONMember(key: $0.0, keyLocation: generatedPosition, value: $0.1) }),
            at: generatedPosition)
    }

    /// The node's compact JSON text: a key for comparing values whatever their positions.
    var canonicalText: String {
        String(decoding: JSONWriter(style: .compact).data(self).dropLast(), as: UTF8.self)
    }
}
