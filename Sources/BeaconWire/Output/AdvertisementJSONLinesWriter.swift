import BeaconCore

/// Writes advertisements as JSON lines: one object per line, every key always present (`null`
/// when the report has no such fact).
///
/// Keys: `time` (Unix seconds, 6 decimals), `frame` (1-based record number), `report_index`,
/// `source` (`legacy`, `extended`, `directed`, `link_layer`), `address`, `address_type`,
/// `event_type` (hex string as in the CSV), `pdu_type` (sniffers: `ADV_IND` …), `rssi`,
/// `tx_power` (extended reports), `channel`, `crc_ok` (sniffers), `sid`, `data` (hex),
/// `data_malformed` (an AD length runs past the end), `local_name`, `tx_power_level` (AD 0x0A),
/// `ibeacon` {`uuid`, `major`, `minor`, `power`}, `altbeacon` {`company`, `id1`, `id2`, `id3`,
/// `reference_rssi`}, `eddystone` {`frame` (`uid`, `url`, `tlm`, `eid`, `other`), `tx_power`,
/// `namespace`, `instance`, `url`, `battery_mv`, `temperature_c`, `advertising_count`,
/// `uptime_s`; keys of other frame types absent}.
public struct AdvertisementJSONLinesWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// Appends one line for `advertisement` (whose AD structures were read into `facts`).
    public func append(_ advertisement: DecodedAdvertisement, facts: AdvertisementFacts, to buffer: OutputBuffer) {
        let report = advertisement.report
        buffer.append("{\"time\":")
        buffer.append(unixSeconds: advertisement.timestamp)
        buffer.append(",\"frame\":")
        buffer.append(unsigned: UInt(advertisement.recordIndex + 1))
        buffer.append(",\"report_index\":")
        buffer.append(unsigned: UInt(advertisement.reportIndex))
        buffer.append(",\"source\":\"")
        buffer.append(report.kind.staticName)
        buffer.append("\",\"address\":\"")
        buffer.append(address: report.address)
        buffer.append("\",\"address_type\":\"")
        buffer.append(report.addressType.staticName)
        buffer.append("\",\"event_type\":\"")
        buffer.append(eventTypeOf: report)
        buffer.append("\",\"pdu_type\":")
        if report.kind == .linkLayer, let type = AdvertisingPDUType(rawValue: UInt8(truncatingIfNeeded: report.eventType)) {
            buffer.append(byte: UInt8(ascii: "\""))
            buffer.append(type.staticName)
            buffer.append(byte: UInt8(ascii: "\""))
        } else {
            buffer.append("null")
        }
        buffer.append(",\"rssi\":")
        appendOptional(report.rssi.map { Int($0) }, to: buffer)
        buffer.append(",\"tx_power\":")
        appendOptional(report.txPower.map { Int($0) }, to: buffer)
        buffer.append(",\"channel\":")
        appendOptional(report.channel.map { Int($0) }, to: buffer)
        buffer.append(",\"crc_ok\":")
        if let crcOK = advertisement.crcOK { buffer.append(crcOK ? "true" : "false") } else { buffer.append("null") }
        buffer.append(",\"sid\":")
        appendOptional(report.sid.map { Int($0) }, to: buffer)
        buffer.append(",\"data\":\"")
        buffer.append(hexBytes: report.data)
        buffer.append("\",\"data_malformed\":")
        buffer.append(facts.isMalformed ? "true" : "false")
        buffer.append(",\"local_name\":")
        if let name = facts.localName { buffer.append(jsonString: name.bytes) } else { buffer.append("null") }
        buffer.append(",\"tx_power_level\":")
        appendOptional(facts.txPowerLevel.map { Int($0) }, to: buffer)
        buffer.append(",\"ibeacon\":")
        appendIBeacon(facts.iBeacon, to: buffer)
        buffer.append(",\"altbeacon\":")
        appendAltBeacon(facts.altBeacon, to: buffer)
        buffer.append(",\"eddystone\":")
        appendEddystone(facts.eddystone, to: buffer)
        buffer.append("}\n")
    }

    private func appendOptional(_ value: Int?, to buffer: OutputBuffer) {
        if let value { buffer.append(decimal: value) } else { buffer.append("null") }
    }

    private func appendIBeacon(_ frame: IBeaconFrame?, to buffer: OutputBuffer) {
        guard let frame else { return buffer.append("null") }
        buffer.append("{\"uuid\":\"")
        buffer.append(uuidHigh: frame.uuidHigh, low: frame.uuidLow)
        buffer.append("\",\"major\":")
        buffer.append(unsigned: UInt(frame.major))
        buffer.append(",\"minor\":")
        buffer.append(unsigned: UInt(frame.minor))
        buffer.append(",\"power\":")
        buffer.append(decimal: Int(frame.measuredPower))
        buffer.append("}")
    }

    private func appendAltBeacon(_ frame: AltBeaconFrame?, to buffer: OutputBuffer) {
        guard let frame else { return buffer.append("null") }
        buffer.append("{\"company\":")
        buffer.append(unsigned: UInt(frame.companyID))
        buffer.append(",\"id1\":\"")
        buffer.append(uuidHigh: frame.id1High, low: frame.id1Low)
        buffer.append("\",\"id2\":")
        buffer.append(unsigned: UInt(frame.id2))
        buffer.append(",\"id3\":")
        buffer.append(unsigned: UInt(frame.id3))
        buffer.append(",\"reference_rssi\":")
        buffer.append(decimal: Int(frame.referenceRSSI))
        buffer.append("}")
    }

    private func appendEddystone(_ frame: EddystoneFrame?, to buffer: OutputBuffer) {
        guard let frame else { return buffer.append("null") }
        switch frame {
        case .uid(let uid):
            buffer.append("{\"frame\":\"uid\",\"tx_power\":")
            buffer.append(decimal: Int(uid.txPowerAt0m))
            buffer.append(",\"namespace\":\"")
            buffer.append(hexDigitsOf: UInt64(uid.namespaceHigh), digits: 4)
            buffer.append(hexDigitsOf: uid.namespaceLow, digits: 16)
            buffer.append("\",\"instance\":\"")
            buffer.append(hexDigitsOf: uid.instance, digits: 12)
            buffer.append("\"}")
        case .url(let url):
            buffer.append("{\"frame\":\"url\",\"tx_power\":")
            buffer.append(decimal: Int(url.txPowerAt0m))
            buffer.append(",\"url\":")
            var text = url.url
            text.withUTF8 { buffer.append(jsonString: UnsafeRawBufferPointer($0)) }
            buffer.append("}")
        case .tlm(let tlm):
            buffer.append("{\"frame\":\"tlm\",\"battery_mv\":")
            buffer.append(unsigned: UInt(tlm.batteryMillivolts))
            buffer.append(",\"temperature_c\":")
            if let celsius = tlm.temperatureCelsius {
                let hundredths = Int((celsius * 100).rounded())
                if hundredths < 0 { buffer.append(byte: UInt8(ascii: "-")) }
                buffer.append(unsigned: hundredths.magnitude / 100)
                buffer.append(byte: UInt8(ascii: "."))
                buffer.append(unsigned: hundredths.magnitude % 100, width: 2)
            } else {
                buffer.append("null")
            }
            buffer.append(",\"advertising_count\":")
            buffer.append(unsigned: UInt(tlm.advertisingCount))
            buffer.append(",\"uptime_s\":")
            buffer.append(unsigned: UInt(tlm.uptimeTenthsOfSeconds / 10))
            buffer.append("}")
        case .eid:
            buffer.append("{\"frame\":\"eid\"}")
        case .other:
            buffer.append("{\"frame\":\"other\"}")
        }
    }
}
