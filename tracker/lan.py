"""The machine's addresses on the local network, for join links and QR codes.

Reads the interfaces' own IPv4 addresses (where the system has no ``fcntl``, Windows: the addresses of the
machine's name); sends nothing over the network.
"""
from __future__ import annotations

import socket
import struct

try:
    import fcntl  # optional: not on Windows
except ImportError:  # Windows
    fcntl = None

SIOCGIFADDR = 0x8915


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine other than loopback, private ranges first."""
    if fcntl is None:
        return _named_addresses()
    found = []
    try:
        interfaces = [name for _, name in socket.if_nameindex()]
    except OSError:
        interfaces = []
    for name in interfaces:
        if name == "lo":
            continue
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            found.append(socket.inet_ntoa(packed[20:24]))
        except OSError:
            continue
    return _ordered(found)


def _named_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return []
    return _ordered(info[4][0] for info in infos)


def _ordered(addresses) -> list[str]:
    found = [a for a in dict.fromkeys(addresses) if not a.startswith("127.")]
    return sorted(found, key=lambda a: (not a.startswith(("192.168.", "10.", "172.")), a))
