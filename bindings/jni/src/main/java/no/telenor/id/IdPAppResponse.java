package no.telenor.id;

import java.util.Map;

/**
 * The IdP app's answer to a service-provider app ({@code telenorid_idp_response}, Salesforce Mobile SDK identity provider), from
 * {@link IdPAppRequest#respond}: the code, the login host and the state, or an error. Immutable; safe to
 * share.
 */
public final class IdPAppResponse extends NativeObject {
    IdPAppResponse(long handle) {
        super(handle, Native::idpResponseFree);
    }

    /** The response as a URL on the caller's redirect URI, to open it with (iOS-style custom scheme). */
    public @NonNull String url() {
        return call(h -> Utf8.decode(Native.idpResponseUrl(h)));
    }

    /** The response as key-value pairs, for the result intent's extras. */
    public @NonNull Map<String, String> bundle() {
        return call(h -> Bundles.decode(Native.idpResponseParams(h)));
    }
}
