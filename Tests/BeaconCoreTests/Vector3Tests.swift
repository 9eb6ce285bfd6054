import Testing

@testable import BeaconCore

@Suite("Vector3 and BeaconPosition")
struct Vector3Tests {
    @Test("distance, interpolation and both initializers")
    func geometry() {
        let a = Vector3(x: 1, y: 2, z: 2)
        #expect(a == Vector3(1, 2, 2))
        #expect(Vector3.zero.distance(to: a) == 3)
        #expect(Vector3.zero.interpolated(to: a, fraction: 0.5) == Vector3(0.5, 1, 1))
    }

    @Test("a position holds its point; x, y and z read and write it")
    func position() {
        var position = BeaconPosition(x: 1, y: 2, z: 3, error: 0.5)
        #expect(position.point == Vector3(1, 2, 3))
        position.y = 7
        #expect(position == BeaconPosition(point: Vector3(1, 7, 3), error: 0.5))
        #expect((position.x, position.y, position.z) == (1, 7, 3))
    }
}
