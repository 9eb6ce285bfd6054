import BeaconCommandLine

// `beacond`: the command line (BeaconCommandLine) with the stock strategies.
await Beacond.main(adding: [])
