#!/usr/bin/env python3
"""A fault injector for tests with real processes: a TCP proxy on 127.0.0.1 in front of a real
server (an MQTT broker) that blackholes the traffic on command, as a Wi-Fi drop or a dead switch
port does: nothing is reset and nothing is refused; bytes simply stop arriving. It stops reading
what the blackholed direction sends (the bytes wait, as TCP's retransmissions would, and arrive
if the connection outlives the hole); a side that gives up and closes its connection is seen once
the hole heals.

usage: tcp_blackhole_proxy.py SERVER_PORT

Prints its port, then reads commands on its standard input, one a line, and answers each once it
holds:
    hole up      the client's bytes no longer reach the server   -> `hole up`
    hole down    the server's bytes no longer reach the client   -> `hole down`
    hole both    neither                                         -> `hole both`
    heal         everything flows again                          -> `healed`
Exits when its standard input closes.
"""
import asyncio
import sys

SERVER_PORT = int(sys.argv[1])
open_up = asyncio.Event()
open_down = asyncio.Event()


def say(text):
    print(text, flush=True)


async def pump(reader, writer, gate):
    try:
        while True:
            await gate.wait()
            data = await reader.read(65536)
            if not data:
                break
            await gate.wait()  # a hole that opened while this read waited holds what it read
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def handle(client_reader, client_writer):
    try:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", SERVER_PORT)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(pump(client_reader, server_writer, open_up), pump(server_reader, client_writer, open_down))


async def commands():
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        if line == "heal":
            open_up.set()
            open_down.set()
            say("healed")
        elif line.startswith("hole "):
            direction = line.split()[1]
            if direction in ("up", "both"):
                open_up.clear()
            if direction in ("down", "both"):
                open_down.clear()
            say(line)
        else:
            say(f"unknown command: {line}")


async def main():
    open_up.set()
    open_down.set()
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    say(server.sockets[0].getsockname()[1])
    await commands()
    server.close()


asyncio.run(main())
