#!/usr/bin/env python3
"""The WAN simulation's servers that accept and never speak (benchmarks/wan-sim.sh).

    hang-listener.py ADDRESS...

Listens on ADDRESS:443 for each address, accepts every connection, reads and discards what
the client sends (its TLS ClientHello) and never writes a byte; a connection is closed when
the client closes it. The client sees a server that hangs until its own timeout.
"""
import asyncio
import os
import signal
import sys


async def hold(reader, writer):
    try:
        while await reader.read(65536):
            pass
    except (ConnectionError, OSError):
        pass
    writer.close()


async def main(addresses):
    servers = [await asyncio.start_server(hold, address, 443, backlog=4096) for address in addresses]
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    await stop.wait()
    for server in servers:
        server.close()
    os._exit(0)  # without cancelling each held connection's task (and its noise)


if __name__ == "__main__":
    # A test runner may start us with every signal blocked: take TERM and INT back.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    asyncio.run(main(sys.argv[1:]))
