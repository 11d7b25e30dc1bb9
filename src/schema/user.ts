// Who made a request: authentication.k8s.io/v1 UserInfo (kube-apiserver's user.Info).
// It lives in schema/, the vocabulary every layer shares, because both sides of the
// flow need it: auth/ produces it, the server's filters carry it, admission plugins,
// the registry and virtual resources (whoami) read it. None of them may import another
// for it (.dependency-cruiser.cjs).

/** Who made the request; strategies of virtual resources (whoami) read it. */
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}
