"""The machine's addresses on the local network, for join links and QR codes.

Reads the interfaces' own IPv4 addresses; sends nothing over the network.
"""
from __future__ import annotations

import fcntl
import socket
import struct

SIOCGIFADDR = 0x8915


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine other than loopback, private ranges first."""
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
    found = [a for a in dict.fromkeys(found) if not a.startswith("127.")]
    return sorted(found, key=lambda a: (not a.startswith(("192.168.", "10.", "172.")), a))
