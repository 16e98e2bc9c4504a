import ipaddr from 'ipaddr.js'

/** Whether `address` lies in one of `trusted` (addresses or CIDRs; IPv4-mapped IPv6 matches IPv4). */
export function isTrustedProxy(address: string, trusted: readonly string[]): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6
  try {
    ip = ipaddr.process(address.replace(/^\[|\]$/g, ''))
  } catch {
    return false
  }
  return trusted.some((entry) => {
    try {
      const [range, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), null]
      const normalised =
        range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress()
          ? (range as ipaddr.IPv6).toIPv4Address()
          : range
      if (normalised.kind() !== ip.kind()) return false
      return bits === null ? normalised.toString() === ip.toString() : ip.match(normalised, bits)
    } catch {
      return false
    }
  })
}
