/// An Eddystone frame: service data (AD type 0x16) for the 16-bit UUID 0xFEAA.
///
/// Frames that are not UID, URL or unencrypted TLM — EID (0x30), encrypted TLM, unknown frame
/// types, or known types too short to decode — are kept as raw views.
public enum EddystoneFrame {
    /// The Eddystone service UUID.
    public static let serviceUUID: UInt16 = 0xFEAA

    /// Eddystone-UID.
    case uid(EddystoneUID)
    /// Eddystone-URL.
    case url(EddystoneURL)
    /// Unencrypted Eddystone-TLM.
    case tlm(EddystoneTLM)
    /// Eddystone-EID (frame type 0x30): the frame bytes, kept raw.
    case eid(UnsafeRawBufferPointer)
    /// Any other frame: its type byte and all its bytes (type byte included).
    case other(frameType: UInt8, frame: UnsafeRawBufferPointer)

    /// Decodes the data of a 16-bit service data AD structure (starting at the UUID, `AA FE`);
    /// `nil` when it is not Eddystone or holds no frame type byte.
    @inlinable
    public init?(serviceData d: UnsafeRawBufferPointer) {
        guard d.count >= 3, d[0] == 0xAA, d[1] == 0xFE else { return nil }
        self.init(frame: UnsafeRawBufferPointer(rebasing: d[2...]))
    }

    /// Decodes a frame (the bytes after the UUID); `nil` when it is empty.
    @inlinable
    public init?(frame: UnsafeRawBufferPointer) {
        guard !frame.isEmpty else { return nil }
        let type = frame[0]
        switch type {
        case EddystoneUID.frameType:
            if let uid = EddystoneUID(frame: frame) {
                self = .uid(uid)
                return
            }
        case EddystoneURL.frameType:
            if let url = EddystoneURL(frame: frame) {
                self = .url(url)
                return
            }
        case EddystoneTLM.frameType:
            if let tlm = EddystoneTLM(frame: frame) {
                self = .tlm(tlm)
                return
            }
        case 0x30:
            self = .eid(frame)
            return
        default:
            break
        }
        self = .other(frameType: type, frame: frame)
    }
}
