/// The wait shared by the grants that poll the token endpoint while the user approves elsewhere: the
/// device authorization grant (RFC 8628 §3.4, §3.5) and CIBA's poll and ping modes (OpenID CIBA Core 1.0
/// §7.3, §10.1, §11). Between polls the thread sleeps on a condition variable, so a wait costs no CPU; the
/// client's `cancel` ends it (`.cancelled`), and a `SleepWaker` (CIBA's ping) ends one sleep early.
public enum TokenPolling {
    /// The interval when the provider gives none: RFC 8628 §3.2 and CIBA Core §7.3 both say 5 seconds.
    public static let defaultInterval: Int64 = 5
    /// What `slow_down` adds to the interval, for this and every later poll (RFC 8628 §3.5, CIBA Core §11).
    public static let slowDownStep: Int64 = 5
    /// The longest the client keeps a grant alive whatever `expires_in` says: no person takes longer to
    /// approve on another device, and it bounds how long one wait can block a host thread. RFC 8628 §3.2's
    /// example gives 1800 seconds.
    public static let maximumLifetime: Int64 = 3600
    /// Larger `expires_in` or `interval` values are refused rather than capped: no provider means a day,
    /// so such a number is a broken or hostile answer (and keeps the arithmetic far from overflow).
    public static let implausibleSeconds: Int64 = 86_400
    /// The longest interval a timeout makes (RFC 8628 §3.5: "clients MUST unilaterally reduce their
    /// polling frequency"; doubled on each timeout, to this at most, never below the provider's).
    public static let maximumBackoff: Int64 = 60

    /// When to poll: the interval in force and the client's own deadline (its clock's seconds), made from
    /// a provider's `interval` and `expires_in` when the grant started.
    public struct Schedule: Sendable, Equatable {
        /// Seconds between polls; grows with `slow_down` and timeouts.
        public internal(set) var interval: Int64
        /// When the grant is given up (`.expired`), in the client's clock.
        public let expiresAt: Int64

        /// `interval` nil: the default (5 s). `interval` 0 is raised to 1 s so that no answer turns the wait
        /// into a busy loop; the lifetime is capped at `maximumLifetime`. Values must have been checked
        /// with `checkedSeconds` first.
        public init(interval: Int64?, expiresIn: Int64, now: Int64) {
            self.interval = max(interval ?? TokenPolling.defaultInterval, 1)
            self.expiresAt = now &+ min(expiresIn, TokenPolling.maximumLifetime)
        }
    }

    /// `member` of a provider's answer as a whole number of seconds: absent gives nil; a non-integer, a
    /// negative number (or zero, unless `zeroAllowed`), or one above `implausibleSeconds` is refused.
    public static func checkedSeconds(
        _ object: JSONObject, _ member: String, zeroAllowed: Bool, during what: String, httpStatus: Int
    ) throws(TelenoridError) -> Int64? {
        guard let value = object[member] else { return nil }
        guard let seconds = value.int64Value, seconds >= (zeroAllowed ? 0 : 1), seconds <= implausibleSeconds else {
            throw TelenoridError(
                .invalidResponse,
                "\(what): \(member) must be a whole number of seconds from \(zeroAllowed ? 0 : 1) to "
                    + "\(implausibleSeconds)", httpStatus: httpStatus)
        }
        return seconds
    }

    /// Polls with `attempt` on `schedule` until it gives a result: first after one interval, then again
    /// after each `authorization_pending`, with the interval grown by `slowDownStep` after each
    /// `slow_down` and doubled (to `maximumBackoff`) after each timeout (RFC 8628 §3.5). `expired_token`,
    /// or the deadline passing, is `.expired`; `access_denied` and any other failure end the wait as they
    /// came. `client.cancel()` from another thread ends it with `.cancelled` within one turn of the sleep
    /// (a transfer under way is cancelled by the transport). `waker` (`SleepWaker(for:)`), when given,
    /// ends a sleep early (CIBA ping mode, §10.2): the poll then runs at once. A ping is a claim, and a
    /// replayed one is as valid as the first, so it may shorten a sleep only after a poll the interval
    /// brought that answered `authorization_pending` (or before the first poll): the sleep after a poll a
    /// ping brought, after `slow_down` (CIBA Core §11: the interval "MUST" then grow for every later
    /// request) or after a timeout runs the whole interval, and rings meanwhile are answered by the poll that
    /// ends it. So pings make at most one extra token request per interval. `schedule` keeps the interval
    /// in force, so a wait that failed and is started again goes on at the pace the provider last asked for.
    public static func wait<Value>(
        on client: OIDCClient, schedule: inout Schedule, waker: SleepWaker? = nil, during what: String,
        _ attempt: () throws(TelenoridError) -> Value
    ) throws(TelenoridError) -> Value {
        let waits = client.sleeps
        let generation = waits.generation
        var pingMayWake = true
        while true {
            let now = client.clock()
            guard now < schedule.expiresAt else {
                throw TelenoridError(.expired, "\(what): the user did not approve before the request expired")
            }
            let pinged = try waits.sleep(
                seconds: min(schedule.interval, schedule.expiresAt - now), since: generation,
                waker: pingMayWake ? waker : nil, during: what)
            // The poll about to run answers the pings that came during a sleep they could not end.
            if !pingMayWake { waker?.discardRing() }
            // A cancel that came as the sleep ended still stops the poll it was meant to prevent.
            try waits.checkCancelled(since: generation, during: what)
            do {
                return try attempt()
            } catch {
                try waits.checkCancelled(since: generation, during: what)
                pingMayWake = false
                switch (error.kind, error.oauthError) {
                case (.authorizationError, "authorization_pending"): pingMayWake = !pinged
                case (.authorizationError, "slow_down"): schedule.interval &+= slowDownStep
                case (.authorizationError, "expired_token"):
                    var expired = error
                    expired.kind = .expired
                    expired.message = "\(what): the request expired before the user approved: \(error.message)"
                    throw expired
                // Never below the interval the provider asked for.
                case (.timeout, _):
                    schedule.interval = max(schedule.interval, min(schedule.interval &* 2, maximumBackoff))
                default: throw error
                }
            }
        }
    }
}

extension SleepWaker {
    /// A waker for a polling wait on `client` (CIBA ping mode: the provider's notification, §10.2, says the
    /// result is ready, so the poll need not wait out the interval).
    public convenience init(for client: OIDCClient) {
        self.init(client.sleeps)
    }
}
