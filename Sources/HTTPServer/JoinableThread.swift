import Glibc

/// A POSIX thread that runs one closure and can be joined exactly once.
final class JoinableThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let thread: pthread_t
    private var joined = false

    init(_ run: @escaping @Sendable () -> Void) throws(HTTPServerError) {
        let box = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, box)
        guard code == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw .threadStart(errno: code)
        }
        self.thread = thread
    }

    /// Waits for the closure to return; later calls do nothing.
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}
