"""Workaround, upstream: triton-lang/triton#9171 ("numpy 2.4.0 causes exceptions in
interpreter tests"), fixed after triton 3.6.

Triton 3.6's interpreter turns a scalar tensor into a Python int with int(array) on a
one-element array, which NumPy 2.4 refuses; every loop with a runtime bound,
`range(lo, hi, step)`, then fails. Later releases squeeze the array first; so does this
patch, which is harmless where the bug is fixed. Remove it once triton 3.6 is not supported.
"""

from triton.runtime import interpreter


def fix_scalar_index() -> None:
    """Make the interpreter's tensors convert to int through a squeezed array (once)."""
    patch = interpreter._patch_lang_tensor
    if getattr(patch, "squeezes_index", False):
        return

    def patched(tensor, scope) -> None:
        patch(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.squeeze()))

    patched.squeezes_index = True
    interpreter._patch_lang_tensor = patched
