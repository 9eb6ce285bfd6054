#!/usr/bin/env python3
"""A fault injector for MQTT tests: a TCP proxy on 127.0.0.1 between a client and a real broker
that holds back the broker's PUBACKs.

usage: mqtt_delay_proxy.py BROKER_PORT (DELAY_SECONDS | hold) [MESSAGE_ID ...]

PUBACKs of the listed message ids (of every id when none is listed) reach the client
DELAY_SECONDS late — or, with `hold`, when the test writes a `release` line to the standard
input (every PUBACK held until then goes); everything else passes at once, in both directions.
Prints its port, then `puback ID delayed` and `puback ID forwarded` lines. Exits when its
standard input closes.
"""
import asyncio
import sys

BROKER_PORT = int(sys.argv[1])
HOLD = sys.argv[2] == "hold"
DELAY = 0.0 if HOLD else float(sys.argv[2])
DELAYED_IDS = {int(a) for a in sys.argv[3:]}
HELD = []  # with `hold`: the PUBACKs waiting for a `release` line


def say(text):
    print(text, flush=True)


async def pump_raw(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def read_packet(reader):
    first = await reader.readexactly(1)
    length, multiplier, header = 0, 1, bytearray(first)
    while True:
        byte = (await reader.readexactly(1))[0]
        header.append(byte)
        length += (byte & 0x7F) * multiplier
        multiplier *= 128
        if byte & 0x80 == 0:
            break
    body = await reader.readexactly(length)
    return first[0], bytes(header) + body, body


async def pump_from_broker(reader, writer):
    loop = asyncio.get_running_loop()
    try:
        while True:
            kind, packet, body = await read_packet(reader)
            if kind >> 4 == 4 and len(body) >= 2:  # PUBACK
                message_id = int.from_bytes(body[:2], "big")
                if not DELAYED_IDS or message_id in DELAYED_IDS:
                    say(f"puback {message_id} delayed")

                    def late(packet=packet, message_id=message_id):
                        if not writer.is_closing():
                            writer.write(packet)
                        say(f"puback {message_id} forwarded")

                    if HOLD:
                        HELD.append(late)
                    else:
                        loop.call_later(DELAY, late)
                    continue
            writer.write(packet)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        loop.call_later(DELAY + 0.1, writer.close)


async def handle(client_reader, client_writer):
    broker_reader, broker_writer = await asyncio.open_connection("127.0.0.1", BROKER_PORT)
    await asyncio.gather(
        pump_raw(client_reader, broker_writer), pump_from_broker(broker_reader, client_writer))


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    say(server.sockets[0].getsockname()[1])
    loop = asyncio.get_running_loop()
    # Until the test closes our stdin; each `release` line lets the held PUBACKs go.
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        if line.strip() == "release":
            released, HELD[:] = list(HELD), []
            for late in released:
                late()


asyncio.run(main())
