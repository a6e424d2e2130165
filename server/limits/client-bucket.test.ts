import { describe, expect, it } from "vitest";
import { throttleBucket } from "./client-bucket";

describe("throttleBucket", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(throttleBucket("203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts an IPv6 address as its /64, however it is written", () => {
    const bucket = "2001:db8:1:2::/64";
    for (const a of ["2001:db8:1:2::1", "2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:DB8:1:2:a:b:c:d", "2001:db8:1:2::1%eth0"]) {
      expect(throttleBucket(a), a).toBe(bucket);
    }
    expect(throttleBucket("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(throttleBucket("::1")).toBe("::/64");
  });

  it("counts an IPv4-mapped or NAT64 address as the IPv4 address it carries", () => {
    expect(throttleBucket("::ffff:198.51.100.9")).toBe("198.51.100.9");
    expect(throttleBucket("64:ff9b::c633:6409")).toBe("198.51.100.9");
    expect(throttleBucket("64:ff9b::198.51.100.10")).toBe("198.51.100.10");
  });

  it("leaves what is not an address as it is", () => {
    expect(throttleBucket("unknown")).toBe("unknown");
    expect(throttleBucket("")).toBe("");
  });
});
