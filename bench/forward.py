"""A tiny TCP forwarder: ``python -m bench.forward LISTEN=TARGET ...``.

PostgreSQL and Redis on this machine listen on 127.0.0.1 only, which a network
namespace cannot reach. The forwarder listens on the root-namespace end of each
namespace's veth and relays to the loopback service, so a worker "host" reaches the
database over its own link, and cutting that link cuts it off as a real network would.

Each argument is ``host:port=host:port``; one line "ready" on stdout says every
listener is up.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys

_CHUNK = 65536


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(_CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


def _relay(target_host: str, target_port: int):  # noqa: ANN202 - a stream callback
    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection(target_host, target_port)
        except OSError:
            client_w.close()
            return
        await asyncio.gather(_pipe(client_r, server_w), _pipe(server_r, client_w))

    return handle


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host, int(port)


async def serve(routes: list[tuple[tuple[str, int], tuple[str, int]]]) -> None:
    servers = [await asyncio.start_server(_relay(*target), *listen)
               for listen, target in routes]
    print("ready", flush=True)
    await asyncio.gather(*(s.serve_forever() for s in servers))


def main(argv: list[str]) -> None:
    routes = []
    for arg in argv:
        listen, _, target = arg.partition("=")
        routes.append((_split(listen), _split(target)))
    asyncio.run(serve(routes))


if __name__ == "__main__":
    main(sys.argv[1:])
