package rest

// SignerVectors exposes the signer test vectors to the live tests.
func SignerVectors() []signerVector { return signerVectors }

// UpdateGolden reports the -update flag.
func UpdateGolden() bool { return *updateGolden }
