"""The WebSocket protocol ``sanma serve`` runs (web/protocol.py, issue 22): a socket's reading pauses
when several messages wait for the application, not after each one — and a client that floods is
still held to a few messages in memory. Driven in-process: the server's protocol on a transport that
records what it is asked, a websockets client protocol writing the frames; nothing waits on time."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from uvicorn import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from sanma.web.protocol import WAITING, WebSocketProtocol


class Transport(asyncio.Transport):
    """What the protocol writes and whether it reads."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.reading = True
        self.pauses = 0
        self.closing = False

    def write(self, data: Any) -> None:
        self.written += data

    def pause_reading(self) -> None:
        self.pauses += 1
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_reading(self) -> bool:
        return self.reading

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


async def _flood(protocol_class: type[WebSocketsSansIOProtocol], sent: int) -> tuple[Transport, list[Any],
                                                                                      WebSocketsSansIOProtocol]:
    """A socket sent ``sent`` messages the application has not taken yet: its transport and the
    application's ``receive`` (the protocol too)."""
    taken: list[Any] = []
    accepted = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        taken.append(receive)
        accepted.set()
        await asyncio.Event().wait()  # takes nothing itself: the test does

    config = Config(app, ws_max_size=64 * 1024, ws_per_message_deflate=False, ws_ping_interval=None, log_level="error")
    config.load()
    protocol = protocol_class(config, ServerState(), {})
    transport = Transport()
    protocol.transport = transport  # (connection_made asks a real socket for its addresses)
    protocol.scheme = "ws"
    client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"))
    client.send_request(client.connect())
    protocol.data_received(b"".join(client.data_to_send()))
    await accepted.wait()
    client.receive_data(bytes(transport.written))
    assert client.state.name == "OPEN"
    for i in range(sent):
        client.send_text(f"message {i}".encode())
    protocol.data_received(b"".join(client.data_to_send()))  # one read: every message at once
    return transport, taken, protocol


def test_reading_goes_on_while_a_few_messages_wait() -> None:
    """uvicorn's protocol pauses reading after each message (an epoll unregister and register per
    answer at a paced table); this one goes on reading until ``WAITING`` messages wait."""

    async def run() -> None:
        transport, _, _ = await _flood(WebSocketProtocol, WAITING - 1)
        assert transport.reading and transport.pauses == 0
        transport, _, _ = await _flood(WebSocketsSansIOProtocol, 1)
        assert not transport.reading and transport.pauses == 1  # what the subclass avoids

    asyncio.run(run())


@pytest.mark.parametrize("extra", [0, 20])
def test_a_flood_pauses_reading_until_the_application_takes_the_messages(extra: int) -> None:
    """A client that sends faster than its table reads is not read further once ``WAITING`` messages
    wait; reading resumes when the application has taken every one, in order."""

    async def run() -> None:
        transport, taken, protocol = await _flood(WebSocketProtocol, WAITING + extra)
        assert not transport.reading and transport.pauses == 1
        receive = taken[0]
        for i in range(WAITING + extra):
            assert not transport.reading
            assert await receive() == {"type": "websocket.receive", "text": f"message {i}"}
        assert transport.reading and protocol.queue.empty()

    asyncio.run(run())
