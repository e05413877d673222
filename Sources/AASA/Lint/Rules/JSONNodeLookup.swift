// Finding nodes and key positions in the parsed JSON, for rules that need more than the model.

extension JSONNode {
    /// The member `key` of an object. When the key is repeated this is the last one: the
    /// document model reads members in order, so the last value is the one it keeps.
    func lastMember(_ key: String) -> JSONMember? {
        members?.last { $0.key == key }
    }

    /// The node that `path` names below this one.
    func node(at path: JSONPath) -> JSONNode? {
        var node = self
        for component in path.components {
            switch component {
            case .key(let key):
                guard let member = node.lastMember(key) else { return nil }
                node = member.value
            case .index(let index):
                guard let elements = node.elements, elements.indices.contains(index) else { return nil }
                node = elements[index]
            }
        }
        return node
    }

    /// The position of the key that ends `path` (nil when the path ends with an index or
    /// names nothing).
    func keyPosition(of path: JSONPath) -> TextPosition? {
        guard case .key(let key)? = path.components.last else { return nil }
        return node(at: JSONPath(Array(path.components.dropLast())))?.lastMember(key)?.keyLocation
    }

    /// Whether the object at `path` has the member `key` (whatever its type).
    func hasMember(_ key: String, at path: JSONPath) -> Bool {
        node(at: path)?.lastMember(key) != nil
    }
}

extension AASADocument {
    /// The position of the key that ends `path`, or `fallback` when there is none.
    func keyPosition(of path: JSONPath, orElse fallback: TextPosition?) -> TextPosition? {
        root.keyPosition(of: path) ?? fallback
    }
}
