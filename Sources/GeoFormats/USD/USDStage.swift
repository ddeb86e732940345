/// A small in-memory USD layer: the subset of scene description the globe needs (prims with a
/// type, applied API schemas, attributes with default values, relationships, attribute
/// connections, and the layer metadata upAxis / metersPerUnit / defaultPrim). Two encoders
/// write it: `USDAText` (.usda) and `USDCrate` (.usdc, the binary crate format).
///
/// Names are checked when the layer is encoded: a prim name must be a USD identifier
/// (`[A-Za-z_][A-Za-z0-9_]*`, the ASCII form every USD reader accepts, including the ones in
/// iOS 12), a property name one or more identifiers joined by `:`. A name that is not is refused
/// with an error naming the path (`USDError`), never written as an invalid prim path; mapping it
/// to another name would break the app's lookup of nodes by name.
public struct USDLayer: Sendable {
    public var defaultPrim: String
    public var upAxis: String = "Y"
    public var metersPerUnit: Double = 1
    public var documentation: String?
    public var rootPrims: [USDPrim] = []
    public init(defaultPrim: String) { self.defaultPrim = defaultPrim }
}

public struct USDPrim: Sendable {
    public var name: String
    public var typeName: String
    /// Prepended API schemas (e.g. "MaterialBindingAPI").
    public var apiSchemas: [String] = []
    public var properties: [USDProperty] = []
    public var children: [USDPrim] = []
    public init(_ name: String, type typeName: String) { self.name = name; self.typeName = typeName }
}

public enum USDValue: Sendable, Equatable {
    case bool(Bool)
    case int(Int32)
    case float(Float)
    case double(Double)
    case token(String)
    /// float3 and its roles (color3f, vector3f, point3f, normal3f).
    case float3(Float, Float, Float)
    case intArray([Int32])
    /// x, y, z per element, packed.
    case float3Array([Float])
    /// half3 and its roles (vector3h, ...): x, y, z per element as IEEE half bit patterns.
    case half3Array([UInt16])
    case tokenArray([String])
}

public struct USDAttribute: Sendable {
    public var name: String
    /// The Sdf value type name: "point3f[]", "int[]", "token", "color3f", ...
    public var typeName: String
    public var value: USDValue?
    public var uniform = false
    /// Primvar interpolation metadata ("vertex", "constant", ...).
    public var interpolation: String?
    /// An attribute connection (`.connect`), as an absolute property path.
    public var connection: String?
    public init(_ name: String, _ typeName: String, _ value: USDValue?, uniform: Bool = false,
                interpolation: String? = nil, connection: String? = nil) {
        self.name = name; self.typeName = typeName; self.value = value; self.uniform = uniform
        self.interpolation = interpolation; self.connection = connection
    }
}

public struct USDRelationship: Sendable {
    public var name: String
    /// Absolute prim or property paths.
    public var targets: [String]
    public init(_ name: String, targets: [String]) { self.name = name; self.targets = targets }
}

public enum USDProperty: Sendable {
    case attribute(USDAttribute)
    case relationship(USDRelationship)
    public var name: String {
        switch self {
        case .attribute(let a): return a.name
        case .relationship(let r): return r.name
        }
    }
}

public struct USDError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

public enum USDIdentifier {
    /// `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isValid(_ s: String) -> Bool {
        guard let first = s.utf8.first else { return false }
        func letter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 }
        return letter(first) && s.utf8.allSatisfy { letter($0) || ($0 >= 48 && $0 <= 57) }
    }

    /// One or more identifiers joined by ':' (a namespaced property name such as "inputs:diffuseColor").
    public static func isValidPropertyName(_ s: String) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { isValid(String($0)) }
    }

    /// Whether `s` is an absolute prim path (`/a/b`) or prim property path (`/a/b.c:d`) made of valid names.
    public static func isValidAbsolutePath(_ s: String) -> Bool {
        guard s.hasPrefix("/") else { return false }
        let dot = s.firstIndex(of: ".")
        let primPart = dot.map { String(s[s.index(after: s.startIndex)..<$0]) } ?? String(s.dropFirst())
        guard primPart.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ isValid(String($0)) }) else { return false }
        if let dot { return isValidPropertyName(String(s[s.index(after: dot)...])) }
        return true
    }
}

extension USDLayer {
    /// Checks every name and path; the encoders call this first.
    public func validate() throws {
        guard USDIdentifier.isValid(defaultPrim) else { throw USDError("defaultPrim \"\(defaultPrim)\" is not a valid USD identifier") }
        guard rootPrims.contains(where: { $0.name == defaultPrim }) else { throw USDError("defaultPrim \"\(defaultPrim)\" names no root prim") }
        for t in [upAxis] where !(t == "Y" || t == "Z") { throw USDError("upAxis must be \"Y\" or \"Z\", not \"\(t)\"") }
        guard metersPerUnit.isFinite && metersPerUnit > 0 else { throw USDError("metersPerUnit must be a positive number") }
        try USDLayer.validate(rootPrims, parent: "")
    }

    static func validate(_ prims: [USDPrim], parent: String) throws {
        var names = Set<String>()
        for p in prims {
            let path = parent + "/" + p.name
            guard USDIdentifier.isValid(p.name) else {
                throw USDError("prim name \"\(p.name)\" under \(parent.isEmpty ? "/" : parent) is not a valid USD identifier ([A-Za-z_][A-Za-z0-9_]*)")
            }
            guard names.insert(p.name).inserted else { throw USDError("prim \(path) appears twice") }
            guard USDIdentifier.isValid(p.typeName) else { throw USDError("prim \(path) has an invalid type name \"\(p.typeName)\"") }
            var props = Set<String>()
            for prop in p.properties {
                guard USDIdentifier.isValidPropertyName(prop.name) else {
                    throw USDError("property name \"\(prop.name)\" of \(path) is not a valid USD property name")
                }
                guard props.insert(prop.name).inserted else { throw USDError("property \(path).\(prop.name) appears twice") }
                switch prop {
                case .attribute(let a):
                    if let c = a.connection, !(USDIdentifier.isValidAbsolutePath(c) && c.contains(".")) {
                        throw USDError("connection of \(path).\(a.name) is not an absolute property path: \(c)")
                    }
                    if let v = a.value { try checkValue(v, a, path) }
                case .relationship(let r):
                    for t in r.targets where !USDIdentifier.isValidAbsolutePath(t) {
                        throw USDError("target of \(path).\(r.name) is not an absolute path: \(t)")
                    }
                }
            }
            try validate(p.children, parent: path)
        }
    }

    static func allFinite(_ f: [Float]) -> Bool {
        f.withUnsafeBufferPointer { b in
            var ok = true
            for x in b where !x.isFinite { ok = false; break }
            return ok
        }
    }

    static func checkValue(_ v: USDValue, _ a: USDAttribute, _ path: String) throws {
        let isArray = a.typeName.hasSuffix("[]")
        let ok: Bool
        switch v {
        case .bool: ok = a.typeName == "bool"
        case .int: ok = a.typeName == "int"
        case .float: ok = a.typeName == "float"
        case .double: ok = a.typeName == "double"
        case .token: ok = a.typeName == "token"
        case .float3(let x, let y, let z): ok = ["float3", "color3f", "vector3f", "point3f", "normal3f"].contains(a.typeName) && x.isFinite && y.isFinite && z.isFinite
        case .intArray: ok = a.typeName == "int[]"
        case .float3Array(let f): ok = isArray && ["float3[]", "color3f[]", "vector3f[]", "point3f[]", "normal3f[]"].contains(a.typeName) && f.count % 3 == 0 && allFinite(f)
        case .half3Array(let h): ok = ["half3[]", "color3h[]", "vector3h[]", "point3h[]", "normal3h[]"].contains(a.typeName) && h.count % 3 == 0 && h.allSatisfy { $0 & 0x7C00 != 0x7C00 }
        case .tokenArray: ok = a.typeName == "token[]"
        }
        if !ok { throw USDError("value of \(path).\(a.name) does not fit its type \(a.typeName) (or is not finite)") }
    }
}

/// IEEE 754 half precision (binary16), converted by hand rather than with Float16, which some
/// Swift platforms (macOS on Intel) do not have.
public enum Half {
    /// The nearest half (ties to even); beyond the half range, infinity.
    public static func bits(_ f: Float) -> UInt16 {
        let x = f.bitPattern
        let sign = UInt16((x >> 16) & 0x8000)
        let e = Int((x >> 23) & 0xFF)
        var mant = x & 0x7F_FFFF
        if e == 0xFF { return sign | 0x7C00 | (mant != 0 ? 0x200 : 0) }
        let exp = e - 127 + 15
        if exp >= 31 { return sign | 0x7C00 }
        if exp <= 0 {
            if exp < -10 { return sign }
            mant |= 0x80_0000
            let shift = UInt32(14 - exp)
            var h = mant >> shift
            let rem = mant & ((1 << shift) - 1), halfway = UInt32(1) << (shift - 1)
            if rem > halfway || (rem == halfway && h & 1 == 1) { h += 1 }
            return sign | UInt16(h)
        }
        var h = UInt32(exp) << 10 | (mant >> 13)
        let rem = mant & 0x1FFF
        if rem > 0x1000 || (rem == 0x1000 && h & 1 == 1) { h += 1 }   // a carry rounds up into the exponent
        return sign | UInt16(h)
    }

    public static func float(_ h: UInt16) -> Float {
        let sign: Float = h & 0x8000 != 0 ? -1 : 1
        let e = Int((h >> 10) & 0x1F), m = Int(h & 0x3FF)
        if e == 0 { return sign * Float(m) * Float(sign: .plus, exponent: -24, significand: 1) }
        if e == 31 { return m == 0 ? sign * .infinity : .nan }
        return Float(bitPattern: UInt32(h & 0x8000) << 16 | UInt32(e - 15 + 127) << 23 | UInt32(m) << 13)
    }
}
