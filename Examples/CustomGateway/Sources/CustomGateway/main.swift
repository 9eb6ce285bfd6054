import BeaconCommandLine

// beacond's command line with one more strategy, `steady-signal` (SteadySignalStrategy.swift):
// configuration names it like a stock one, and every command knows it —
//
//     custom-gateway run --config shelf.gateway.yaml      the daemon, with the bundled scenario
//     custom-gateway check-config shelf.gateway.yaml      its typed parameters checked
//     custom-gateway strategies                           listed with the stock ones
//     custom-gateway explain --scenario shelf.yaml --config shelf.gateway.yaml --beacon parcel
await Beacond.main(adding: [SteadySignalStrategy.registration])
