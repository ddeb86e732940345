import Foundation
import Parallelism
import Testing

/// Background: the value (or the error) of work started early, on a thread or, for a
/// one-thread run, in the first `value()` call; later calls give the same result.
@Suite struct BackgroundTests {
    struct Failed: Error, Equatable {}

    @Test(arguments: [true, false]) func theValueComesBackOnEveryCall(onThread: Bool) throws {
        let work = Background(onThread: onThread) { (1...1000).reduce(0, +) }
        #expect(try work.value() == 500_500)
        #expect(try work.value() == 500_500)
    }

    @Test(arguments: [true, false]) func theErrorIsRethrownOnEveryCall(onThread: Bool) {
        let work = Background(onThread: onThread) { () throws -> Int in throw Failed() }
        #expect(throws: Failed.self) { try work.value() }
        #expect(throws: Failed.self) { try work.value() }
    }

    @Test func withoutAThreadTheWorkWaitsForTheFirstCall() throws {
        final class Box: @unchecked Sendable { var ran = false }  // written by the deferred work, on this thread
        let box = Box()
        let work = Background(onThread: false) { box.ran = true }
        #expect(!box.ran)
        try work.value()
        #expect(box.ran)
    }
}
