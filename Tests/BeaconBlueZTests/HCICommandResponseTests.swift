import BeaconBlueZ
import Testing

@Suite("HCICommandResponse")
struct HCICommandResponseTests {
    @Test("Command Complete for Read Local Version: status, then the 8 version bytes")
    func readLocalVersionComplete() throws {
        let event: [UInt8] = [
            0x04, // H4: event
            0x0E, // Command Complete
            0x0C, // 12 parameter bytes
            0x01, // Num_HCI_Command_Packets
            0x01, 0x10, // Command_Opcode 0x1001
            0x00, // Status: success
            0x09, // HCI_Version 0x09 = Bluetooth 5.0
            0x0D, 0x00, // HCI_Subversion 0x000D
            0x09, // LMP_Version 5.0
            0x0F, 0x00, // Company_Identifier 0x000F (Broadcom)
            0x0C, 0x61, // LMP_Subversion 0x610C
        ]
        let response = try #require(try HCICommandResponse.parse(event))
        #expect(response.kind == .complete)
        #expect(response.opcode == .readLocalVersion)
        #expect(response.status == .success)
        let version = try LocalVersion(returnParameters: response.returnParameters)
        #expect(
            version
                == LocalVersion(
                    hciVersion: 0x09, hciSubversion: 0x000D, lmpVersion: 0x09,
                    manufacturer: 0x000F, lmpSubversion: 0x610C))
        #expect(version.description == "Bluetooth 5.0")
    }

    @Test("Command Complete for LE Read Local Supported Features: bit 12 = LE Extended Advertising")
    func leFeaturesComplete() throws {
        let event: [UInt8] = [
            0x04, 0x0E, 0x0C, // event, Command Complete, 12 bytes
            0x01, // Num_HCI_Command_Packets
            0x03, 0x20, // opcode 0x2003
            0x00, // success
            0xFF, 0x19, // LE_Features bits 0-7 all; bits 8, 11, 12 (0x19 = 0001 1001)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        let response = try #require(try HCICommandResponse.parse(event))
        let features = try LEFeatures(returnParameters: response.returnParameters)
        #expect(features.rawValue == 0x19FF)
        #expect(features.supportsExtendedAdvertising)
        #expect(!(try LEFeatures(returnParameters: [0xFF, 0x09, 0, 0, 0, 0, 0, 0])).supportsExtendedAdvertising)
    }

    @Test("Command Complete with Command Disallowed for LE Set Scan Parameters")
    func commandDisallowed() throws {
        let event: [UInt8] = [
            0x04, 0x0E, 0x04, // event, Command Complete, 4 bytes
            0x01, // Num_HCI_Command_Packets
            0x0B, 0x20, // opcode 0x200B
            0x0C, // Status: Command Disallowed
        ]
        let response = try #require(try HCICommandResponse.parse(event))
        #expect(response.status == .commandDisallowed)
        #expect(response.opcode == .leSetScanParameters)
        #expect(response.returnParameters.isEmpty)
        #expect(response.status.description == "Command Disallowed (0x0c)")
    }

    @Test("Command Status carries status before the opcode")
    func commandStatus() throws {
        let event: [UInt8] = [
            0x04, 0x0F, 0x04, // event, Command Status, 4 bytes
            0x01, // Status: Unknown HCI Command
            0x01, // Num_HCI_Command_Packets
            0x41, 0x20, // opcode 0x2041
        ]
        let response = try #require(try HCICommandResponse.parse(event))
        #expect(
            response
                == HCICommandResponse(
                    kind: .status, opcode: .leSetExtendedScanParameters,
                    status: .unknownCommand))
    }

    @Test("Other events are not responses")
    func otherEvents() throws {
        let advertisingReport: [UInt8] = [0x04, 0x3E, 0x03, 0x02, 0x01, 0x00]
        #expect(try HCICommandResponse.parse(advertisingReport) == nil)
        #expect(try HCICommandResponse.parse([0x02, 0x0E]) == nil) // ACL data, not an event
    }

    @Test("A length byte that disagrees with the bytes read is an error with offset and bytes")
    func lengthMismatch() {
        let event: [UInt8] = [0x04, 0x0E, 0x06, 0x01, 0x0B, 0x20, 0x00] // says 6, has 4
        #expect(throws: HCIEventError(.lengthMismatch(declared: 6, actual: 4), bytes: event)) {
            try HCICommandResponse.parse(event)
        }
        let error = HCIEventError(.lengthMismatch(declared: 6, actual: 4), bytes: event)
        #expect(error.description.contains("offset 2"))
        #expect(error.description.contains("04 0e 06 01 0b 20 00"))
    }

    @Test("Short return parameters are reported with the command")
    func shortReturnParameters() {
        #expect(
            throws: HCIEventError(
                .shortReturnParameters(opcode: .readLocalVersion, needed: 8, actual: 2),
                bytes: [0x09, 0x00])
        ) {
            try LocalVersion(returnParameters: [0x09, 0x00])
        }
    }
}
