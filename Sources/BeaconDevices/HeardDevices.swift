import BeaconCore
import BeaconWire

/// What was heard, device by device (by address): for `beacond devices`, so that a person can find
/// their own phone by standing next to a gateway, and for `beacond irk check`.
///
/// Each address keeps its type, the strongest and latest RSSI and where the strongest came from
/// (a gateway, or a capture file), how often it was heard, its local name and manufacturer when it
/// advertises them, whether it carries a beacon frame, and the enrolled device it resolves to.
/// Bounded: past `capacity` addresses, new ones are counted (``dropped``) but not kept.
public final class HeardDevices {
    /// One address heard.
    public struct Device: Sendable {
        /// The address.
        public var address: BluetoothAddress
        /// Its type as the reports give it.
        public var addressType: AddressType
        /// The strongest RSSI heard, dBm.
        public var strongestRSSI: Int8?
        /// Where the strongest RSSI was heard (a gateway id or a capture file's name).
        public var strongestAt: String
        /// The latest RSSI, dBm.
        public var lastRSSI: Int8?
        /// Reports heard.
        public var reports = 0
        /// The local name it advertises, if any.
        public var name: String?
        /// The company of its first manufacturer-specific data, if any.
        public var company: UInt16?
        /// Whether its data carries an iBeacon, AltBeacon or Eddystone frame.
        public var isBeacon = false
        /// The enrolled device its address resolves to, if any.
        public var enrolledAs: BeaconID?
        /// When it was first and last heard.
        public var firstHeard: Timestamp
        public var lastHeard: Timestamp

        /// What kind of random address it is, for a random address.
        public var randomKind: RandomAddressKind? { addressType == .random ? RandomAddressKind(address) : nil }
    }

    /// The addresses kept, in the order first heard.
    public private(set) var devices: [Device] = []
    private var index: [BluetoothAddress: Int] = [:]
    /// The most addresses kept.
    public let capacity: Int
    /// Addresses heard after ``capacity`` was reached (counted, not kept).
    public private(set) var dropped = 0
    private var resolver: PrivateAddressResolver?

    /// An empty table keeping up to `capacity` addresses, resolving through `resolver` (enrolled
    /// devices) when given.
    public init(capacity: Int = 10_000, resolver: PrivateAddressResolver? = nil) {
        self.capacity = capacity
        self.resolver = resolver
    }

    /// Notes one advertising report heard at `time` by `gateway`.
    public func add(_ report: AdvertisingReport, at time: Timestamp, gateway: String) {
        let position: Int
        if let known = index[report.address] {
            position = known
        } else {
            guard devices.count < capacity else {
                dropped += 1
                return
            }
            position = devices.count
            index[report.address] = position
            let enrolled = resolver?.resolvedDevice(for: report.address, type: report.addressType).map {
                resolver!.devices[$0].id
            }
            devices.append(
                Device(
                    address: report.address, addressType: report.addressType, strongestRSSI: nil, strongestAt: gateway,
                    lastRSSI: nil, enrolledAs: enrolled, firstHeard: time, lastHeard: time))
        }
        var device = devices[position]
        device.reports += 1
        device.lastHeard = max(device.lastHeard, time)
        if let rssi = report.rssi {
            device.lastRSSI = rssi
            if device.strongestRSSI.map({ rssi > $0 }) ?? true {
                device.strongestRSSI = rssi
                device.strongestAt = gateway
            }
        }
        var structures = ADStructureIterator(report.data)
        while let structure = try? structures.next() {
            switch structure.element {
            case .localName(let name) where device.name == nil || name.isComplete: device.name = name.string
            case .manufacturerData(let company, _) where device.company == nil: device.company = company
            case .iBeacon, .altBeacon, .eddystone: device.isBeacon = true
            default: break
            }
        }
        devices[position] = device
    }

    /// The devices that are neither enrolled nor beacons, strongest first: what a person looks
    /// through to find their own phone.
    public var unenrolled: [Device] {
        devices.filter { $0.enrolledAs == nil && !$0.isBeacon }.sorted {
            ($0.strongestRSSI ?? -128, $1.address) > ($1.strongestRSSI ?? -128, $0.address)
        }
    }

    /// A company identifier's name, for the few that phones and watches carry most; `nil` for others.
    public static func companyName(_ company: UInt16) -> String? {
        switch company {
        case 0x004C: "Apple"
        case 0x0006: "Microsoft"
        case 0x0075: "Samsung"
        case 0x00E0: "Google"
        case 0x0087: "Garmin"
        case 0x0157: "Huami"
        case 0x038F: "Xiaomi"
        default: nil
        }
    }
}
