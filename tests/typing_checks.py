"""Static proof that every fake satisfies the Protocol it stands in for.

Nothing imports this module at run time; ``mypy --strict`` checks it (see ``[tool.mypy]``
``files`` in pyproject.toml), so a fake missing a method, or one whose signature drifted
from the Protocol, fails the type check instead of a UI test much later.
"""

from __future__ import annotations

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.kernel_api import BusLike, KernelApi
from tests.ui.fakes import FakeKernel


def fake_kernel_is_a_kernel_api(fake: FakeKernel) -> KernelApi:
    """The UI's fake kernel offers everything the window calls on the real one."""
    return fake


def real_kernel_is_a_kernel_api(kernel: Kernel) -> KernelApi:
    """And the real kernel does too (the Protocol describes it, not a wish)."""
    return kernel


def fake_bus_is_a_bus(fake: FakeKernel) -> BusLike:
    """The fake publishes on the engine's own bus."""
    return fake.bus
