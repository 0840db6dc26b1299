/**
 * The check a verification Job runs: one request as the caller, then one verdict line and exit 0 (as expected) or 1.
 *
 * What the target's proxy answers a refused request with, from linkerd2-proxy at release/v2.359.0 (the proxy Linkerd
 * 2.20 pins in linkerd2's `.proxy-version`):
 * - HTTP and gRPC ports (a Server with an HTTP protocol, or protocol detection finding HTTP): authorization runs per
 *   route, and a request no authorization admits fails with `HttpRouteUnauthorized` ("unauthorized request on route",
 *   linkerd/app/inbound/src/policy/http.rs `HttpPolicyService::authorize`). `ServerRescue::rescue`
 *   (linkerd/app/inbound/src/http/server.rs) turns it into `SyntheticHttpResponse::permission_denied`
 *   (linkerd/app/core/src/errors/respond.rs): HTTP 403, or for a gRPC request (content-type application/grpc) HTTP
 *   200 with `grpc-status: 7` (PERMISSION_DENIED) in the headers; both with `content-length: 0` and no body.
 *   `l5d-proxy-error` (and `grpc-message`) are added only for meshed peers (`ExtractParam<EmitHeaders>` in server.rs:
 *   a TLS client identity is required), and the caller's own outbound proxy removes `l5d-proxy-error` before the
 *   response reaches the caller (linkerd/app/outbound/src/http/handle_proxy_error_headers.rs `update_response`). So no
 *   caller application ever sees that header; the mark it can see is the empty 403 (or grpc-status 7 with
 *   content-length 0) without a content-type.
 * - A plaintext caller on such a port is still detected as HTTP (linkerd/app/inbound/src/detect.rs
 *   `push_detect_http`) and gets the same 403, without `l5d-proxy-error`.
 * - Opaque ports, and connections detection does not find HTTP on: authorization is per connection
 *   (linkerd/app/inbound/src/policy/tcp.rs `NewTcpPolicy`, `check_authorized`); an unauthorized connection is
 *   closed without a byte of response, which curl reports as exit 52 (empty reply) or 56 (connection reset).
 * An application's own 403 normally carries a body or a content-type; this check cannot tell an application that
 * answers exactly like the proxy (empty 403 without content-type) from the proxy (the runbook says so).
 *
 * The script is POSIX sh for busybox (the curl image) and needs only curl; gRPC requests are a length-prefixed empty
 * message over HTTP/2 without TLS (`--http2-prior-knowledge`), which is what the target's proxy authorizes on: the
 * route (service and method in the path), not the message. Inputs come from the Job's environment (VERIFY_*).
 */
export const VERDICT_SCRIPT = `set -u
what="$VERIFY_CALLER -> $VERIFY_URL ($VERIFY_REQUEST)"
if [ "$VERIFY_PROTOCOL" = grpc ]; then
  # An empty message, read whole from a file so that it leaves with the request headers (the Job mounts /tmp).
  request=$(mktemp) && printf '\\000\\000\\000\\000\\000' > "$request"
  resp=$(curl -sS --http2-prior-knowledge -X POST -H 'content-type: application/grpc' -H 'te: trailers' \\
    --data-binary "@$request" -D - -o /dev/null -w 'verify-size=%{size_download}\\n' --max-time "$VERIFY_TIMEOUT" "$VERIFY_URL" 2>&1)
else
  resp=$(curl -sS -X "$VERIFY_METHOD" -D - -o /dev/null -w 'verify-size=%{size_download}\\n' --max-time "$VERIFY_TIMEOUT" "$VERIFY_URL" 2>&1)
fi
rc=$?
lines=$(printf '%s\\n' "$resp" | tr -d '\\r' | tr 'A-Z' 'a-z')
status=$(printf '%s\\n' "$lines" | sed -n 's/^http\\/[0-9.]* \\([0-9][0-9][0-9]\\).*/\\1/p' | tail -n 1)
grpc=$(printf '%s\\n' "$lines" | sed -n 's/^grpc-status: *\\([0-9]*\\).*/\\1/p' | head -n 1)
has() { printf '%s\\n' "$lines" | grep -q "$1"; }
# The proxy's answer counts even when curl reports an HTTP/2 stream error after it (the proxy may reset the stream
# whose request body it did not read): the headers arrived.
if [ "$VERIFY_PROTOCOL" = grpc ] && [ "$grpc" = 7 ] && has '^content-length: *0$'; then
  outcome=refused; observed="grpc-status 7 (PERMISSION_DENIED) with content-length 0: refused by the target's proxy"
elif [ "$VERIFY_PROTOCOL" != grpc ] && [ "$status" = 403 ] && has '^content-length: *0$' && ! has '^content-type:'; then
  outcome=refused; observed="HTTP 403 with content-length 0 and no content-type: refused by the target's proxy"
elif [ "$rc" -eq 52 ] || [ "$rc" -eq 56 ]; then
  outcome=refused; observed="connection closed without a response (curl exit $rc): the proxy drops an unauthorized connection"
elif [ "$rc" -ne 0 ]; then
  outcome=unknown; observed="no answer (curl exit $rc: $(printf '%s\\n' "$resp" | grep '^curl:' | head -n 1))"
else
  outcome=allowed; observed="HTTP \${status:-?}\${grpc:+, grpc-status $grpc}: not refused by the proxy"
fi
if [ "$outcome" = "$VERIFY_EXPECT" ]; then
  echo "PASS expected $VERIFY_EXPECT: $what: $observed"; exit 0
fi
echo "FAIL expected $VERIFY_EXPECT: $what: $observed"; exit 1
`;
