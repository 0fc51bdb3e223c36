"""Where a webhook may point, and one POST to it pinned to the address that was checked.

A team's admin chooses the URL, the portal's worker calls it: without a rule, anyone administering a
team could make the worker call its own machine, the cloud's metadata service or the lab's network.
Webhooks go to public addresses only: http(s), and every address the name resolves to outside the
loopback, private, link-local, multicast, unspecified and reserved ranges (but for the networks of the
``WEBHOOK_ALLOWED_NETWORKS`` setting). The rule is checked when the hook is saved and again when it is
sent; the POST connects to the address just checked, so a name that resolves elsewhere a moment later
(DNS rebinding) is never followed, nor is a redirect.
"""

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# Names that are the machine itself whatever a resolver says (RFC 6761).
LOOPBACK_NAMES = ("localhost", "localhost.")


class WebhookRefused(Exception):
    """The URL is not one the portal may POST to; the message says why, for the team's admin."""


def system_resolve(host: str, port: int) -> list[str]:
    """The addresses the system's resolver gives ``host`` (raises OSError when it gives none)."""
    return sorted({str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)})


# How names become addresses: the system's resolver. The one seam tests set, where no DNS answers.
resolve: Callable[[str, int], list[str]] = system_resolve


@dataclass(frozen=True)
class Target:
    """A checked webhook: the URL's parts and the address the POST connects to."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(network, strict=False) for network in settings.WEBHOOK_ALLOWED_NETWORKS]


def address_kind(address: Address) -> str:
    """'' for a public address (or one in an allowed network), else what kind of address it is."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address in network for network in _allowed_networks()):
        return ""
    kinds = (
        ("an unspecified", address.is_unspecified),
        ("a loopback", address.is_loopback),
        ("a link-local", address.is_link_local),
        ("a multicast", address.is_multicast),
        ("a reserved", address.is_reserved),
        ("a private", address.is_private),
        ("a reserved", not address.is_global),  # shared (100.64.0.0/10), documentation, benchmarking...
    )
    return next((kind for kind, is_kind in kinds if is_kind), "")


def _parts(url: str) -> tuple[str, str, int, str]:
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as bad:
        raise WebhookRefused(f"The webhook's address cannot be read: {bad}.") from None
    if parts.scheme not in ("http", "https"):
        raise WebhookRefused("Give an http:// or https:// address.")
    if not parts.hostname:
        raise WebhookRefused("The webhook's address names no host.")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def _addresses(host: str, port: int) -> list[str]:
    """The host's addresses: itself when it is one, the loopback for localhost names, else resolved."""
    try:
        ipaddress.ip_address(host)
        return [host]
    except ValueError:
        pass
    if host.lower() in LOOPBACK_NAMES or host.lower().rstrip(".").endswith(".localhost"):
        return ["127.0.0.1", "::1"]
    return resolve(host, port)


def _check(host: str, addresses: list[str]) -> None:
    for text in addresses:
        kind = address_kind(ipaddress.ip_address(text.split("%")[0]))
        if kind:
            named = f"{text} is" if text == host else f"{host} resolves to {text},"
            raise WebhookRefused(
                f"Webhooks go to public addresses only: {named} {kind} address. "
                "The portal's operator may allow a lab's own network."
            )


def url_check(url: str) -> None:
    """Raise :class:`WebhookRefused` when the URL may not be saved as a webhook. A name that does not
    resolve now is accepted (it is resolved and checked again whenever the hook is sent)."""
    _, host, port, _ = _parts(url)
    try:
        addresses = _addresses(host, port)
    except OSError:
        return
    _check(host, addresses)


def target_checked(url: str) -> Target:
    """The URL resolved and checked, ready to be sent to; raises :class:`WebhookRefused`."""
    scheme, host, port, path = _parts(url)
    try:
        addresses = _addresses(host, port)
    except OSError as failure:
        raise WebhookRefused(f"The webhook's host {host} could not be resolved: {failure}.") from None
    if not addresses:
        raise WebhookRefused(f"The webhook's host {host} could not be resolved.")
    _check(host, addresses)
    return Target(scheme=scheme, host=host, port=port, path=path, address=addresses[0])


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the checked address, whatever the host name (sent as Host) resolves to by now."""

    def __init__(self, target: Target, timeout_s: float):
        super().__init__(target.host, target.port, timeout=timeout_s)
        self.target = target
        self.raw: socket.socket | None = None
        self.cut = threading.Event()

    def connect(self) -> None:
        self.raw = socket.create_connection((self.target.address, self.target.port), self.timeout)
        if self.cut.is_set():  # connecting took the whole time
            raise TimeoutError
        self.sock = self._wrap(self.raw)

    def _wrap(self, raw: socket.socket) -> socket.socket:
        return raw

    def abort(self) -> None:
        """Cut the connection from another thread: a read waiting for a dripping answer returns."""
        self.cut.set()
        if self.raw is not None:
            with contextlib.suppress(OSError):  # closed already
                self.raw.shutdown(socket.SHUT_RDWR)


class _PinnedHTTPSConnection(_PinnedHTTPConnection):
    """As above, with TLS verified for the host name (not the address)."""

    default_port = http.client.HTTPS_PORT

    def _wrap(self, raw: socket.socket) -> socket.socket:
        return ssl.create_default_context().wrap_socket(raw, server_hostname=self.target.host)


def post(target: Target, body: bytes, *, headers: dict[str, str], timeout_s: float) -> str:
    """POST ``body`` to the checked target, the whole exchange cut at ``timeout_s`` (an endpoint sending
    one byte every few seconds never lets a socket time out); '' when it answered 2xx, else what went
    wrong, in words."""
    pinned = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = pinned(target, timeout_s)
    cut = threading.Timer(timeout_s, connection.abort)
    cut.start()
    try:
        connection.request("POST", target.path, body=body, headers={**headers, "Connection": "close"})
        status = connection.getresponse().status
    except (OSError, http.client.HTTPException) as failure:
        if connection.cut.is_set() or isinstance(failure, TimeoutError):
            return f"the webhook did not answer within {timeout_s:.3g} s"
        return f"the webhook could not be reached: {failure}"
    finally:
        cut.cancel()
        connection.close()
    if 300 <= status < 400:
        return f"the webhook answered HTTP {status} (redirects are not followed)"
    return "" if 200 <= status < 300 else f"the webhook answered HTTP {status}"
