import BeaconPipeline
import BeaconTestSupport
import Testing

@Suite("PipelineInbox: bounded, in order, never stuck")
struct PipelineInboxTests {
    @Test("Inputs come out in the order they were sent")
    func order() async throws {
        let inbox = PipelineInbox<Int>(capacity: 4)
        let producer = Task {
            for value in 0..<100 { try await inbox.send(value) }
            inbox.finish()
        }
        var received: [Int] = []
        while let value = await inbox.next() { received.append(value) }
        try await producer.value
        #expect(received == Array(0..<100))
    }

    @Test("A sender waits while the inbox is full, and goes on once there is room")
    func backPressure() async throws {
        let inbox = PipelineInbox<Int>(capacity: 2)
        try await inbox.send(1)
        try await inbox.send(2)
        let third = Task { try await inbox.send(3) }
        await eventually { inbox.waiting == 3 }
        #expect(inbox.waiting == 3) // two in the buffer, one sender parked
        #expect(await inbox.next() == 1)
        try await third.value // room was made: the parked input moved in
        #expect(await inbox.next() == 2)
        #expect(await inbox.next() == 3)
    }

    @Test("A sender cancelled while it waits gets CancellationError and its input is not sent")
    func cancelledSender() async throws {
        let inbox = PipelineInbox<Int>(capacity: 1)
        try await inbox.send(1)
        let parked = Task { try await inbox.send(2) }
        await eventually { inbox.waiting == 2 }
        parked.cancel()
        await #expect(throws: CancellationError.self) { try await parked.value }
        inbox.finish()
        #expect(await inbox.next() == 1)
        #expect(await inbox.next() == nil)
    }

    @Test("After finish, waiting inputs are still handed out, then nil; new ones are refused")
    func finish() async throws {
        let inbox = PipelineInbox<Int>(capacity: 4)
        try await inbox.send(1)
        try await inbox.send(2)
        inbox.finish()
        await #expect(throws: PipelineError.self) { try await inbox.send(3) }
        #expect(await inbox.next() == 1)
        #expect(await inbox.next() == 2)
        #expect(await inbox.next() == nil)
    }

    @Test("A receiver waiting on an empty inbox wakes with the next input, or with nil at finish")
    func waitingReceiver() async throws {
        let inbox = PipelineInbox<Int>(capacity: 1)
        let first = Task { await inbox.next() }
        await Task.yield()
        try await inbox.send(7)
        #expect(await first.value == 7)
        let second = Task { await inbox.next() }
        await Task.yield()
        inbox.finish()
        #expect(await second.value == nil)
    }

    @Test("A receiver cancelled while it waits gets nil")
    func cancelledReceiver() async {
        let inbox = PipelineInbox<Int>(capacity: 1)
        let receiver = Task { await inbox.next() }
        receiver.cancel()
        #expect(await receiver.value == nil)
    }
}
