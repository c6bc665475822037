// Engine's users reach the OS door (`SystemCall`, `SystemError`) through Engine, as before it moved below
// Engine into OSCall (where Lifecycle, which does not depend on Engine, reaches it too).
@_exported import OSCall
