import { gatewayContract } from './contract';
import { memoryHarness, officeHarness } from './harnesses';
import { MAC, membersCalledOn, WEB, WINDOWS } from './officeJs';
import { HOST_FILES, NEWER_CLIENT_MEMBERS, readDeclarations, unavailableOn } from './requirementSets';

gatewayContract('MemoryGateway', (options) => memoryHarness(options));

// A small request budget makes every write go in chunks, so the suspension and chunking calls run too.
for (const host of [WINDOWS, MAC, WEB]) {
  gatewayContract(`OfficeGateway through office-js on ${host.name}`, (options) => officeHarness({ date1904: options?.date1904 }, { host, budgetBytes: 2_000 }));

  describe(`Excel members OfficeGateway called on ${host.name}, against Microsoft's requirement-set declarations`, () => {
    test(`every one is available on ${host.name} (${HOST_FILES[host.name as keyof typeof HOST_FILES]})`, () => {
      const called = membersCalledOn(host);
      expect(called.size).toBeGreaterThan(40);
      expect(unavailableOn(host, called, readDeclarations(HOST_FILES[host.name as keyof typeof HOST_FILES]))).toEqual([]);
    });

    test('every one is a member of the library (the host reports Microsoft’s names)', () => {
      const unknown = [...membersCalledOn(host)].filter((member) => {
        const [type, name] = member.split('.');
        const cls = (Excel as unknown as Record<string, { prototype: object } | undefined>)[type];
        return !(cls && name in cls.prototype) && !(member in NEWER_CLIENT_MEMBERS);
      });
      expect(unknown).toEqual([]);
    });
  });
}
