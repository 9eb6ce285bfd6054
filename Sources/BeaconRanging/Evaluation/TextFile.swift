#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole text file with the C library (the module uses no Foundation).
enum TextFile {
    static func read(_ path: String) throws(RangingEvaluationError) -> String {
        guard let file = fopen(path, "rb") else { throw .unreadable(path: path) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(file) != 0 { throw .unreadable(path: path) }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
